// The "My lists" page (`/{lang}/lists`): everything the signed-in shopper
// sees of their lists, read through the same functions as the API
// (`POST /hosted/lists`: owned and edited lists; the list items read of
// `GET /hosted/lists/{token}/items`), plus what only the page needs: the
// items' shop and price in the market they were saved for, the owner's
// collaborators, the friends who could be invited, and the spoiler rule.
// The page's writes go straight to the API's domain functions
// (updateList, deleteList, deleteItem, moveItem, updateItem,
// inviteCollaborator, removeCollaborator), which check the caller's role.
import { connectionsOf, type Connection } from "~/domains/shop-customers/connections.server";
import { db } from "~/db.server";
import { env } from "~/env.server";
import { isHttpUrl, safeImageUrl } from "~/lib/api/schemas";
import type { Identity } from "~/domains/identity/identity.server";
import { listsOfUser, occasions } from "~/domains/lists/lists.server";
import { readListItems } from "~/domains/lists/items.sql.server";
import { hostedProduct, ownerName } from "~/domains/lists/serialize";
import type { Lang } from "~/lib/lang";
import { alertConsentOf, type AlertConsentStatus } from "~/domains/alerts/consent.server";

export interface MyItem {
  itemId: number;
  title: string;
  imageUrl: string | null;
  /** In the market the item was saved for; null without a price. app/pages/my-lists.server.ts writes it in the page's language. */
  priceMinor: number | null;
  currency: string | null;
  /** The shop's name, else the label or host it was saved from. */
  shop: string | null;
  productUrl: string | null;
  priority: number | null;
  addedAt: string;
  /** null while the owner's spoiler protection hides it. */
  purchased: boolean | null;
}

export interface Person {
  userId: string;
  name: string;
}

export interface MyList {
  token: string;
  dbId: number;
  name: string;
  description: string;
  occasionSlug: string;
  occasionTitle: string;
  sharePublic: boolean;
  role: "owner" | "editor";
  ownerName: string;
  itemCount: number;
  items: MyItem[];
  /** Share page address, while the list is public. */
  shareUrl: string | null;
  /** Owner only: the editors, and friends who could still be invited. */
  collaborators: Person[];
  invitable: Person[];
}

export interface MyListsPage {
  lang: Lang;
  account: { email: string | null; isAnonymous: boolean };
  /** Whether purchased marks on the shopper's own lists are hidden ("hidden"), shown on request ("revealed") or always shown (null). */
  spoiler: "hidden" | "revealed" | null;
  hasFriends: boolean;
  /** Price and stock alerts (app/domains/alerts): off, waiting for the confirmation link, or on; and the reminder choice. */
  alerts: { status: AlertConsentStatus; email: string | null; reminders: boolean };
  owned: MyList[];
  shared: MyList[];
  occasions: { slug: string; title: string }[];
  /** "Connected shops" (app/domains/shop-customers/connections.server.ts). */
  connections: Connection[];
}

export const shareUrlOf = (lang: Lang, token: string) =>
  `${env.APP_URL}/${lang}/list/${encodeURIComponent(token)}`;

const personFields = { id: true, displayName: true, username: true, avatarUrl: true, isPremium: true } as const;

function hostOf(url: string | null): string | null {
  if (!url || !isHttpUrl(url)) return null;
  return new URL(url).hostname.replace(/^www\./, "");
}

/** The page's data for the shopper of `identity` (app/pages/my-lists.server.ts writes prices and dates for the page); `reveal` shows purchased marks despite spoiler protection. */
export async function myListsPage(identity: Identity, lang: Lang, reveal: boolean): Promise<MyListsPage> {
  const userId = identity.userId;
  const [{ lists }, settings, friendRows, occasionList] = await Promise.all([
    listsOfUser(userId),
    db.accountSettings.findUnique({ where: { userId }, select: { spoilerProtection: true } }),
    db.friendship.findMany({
      where: { userId, friend: { deletedAt: null } },
      select: { friend: { select: personFields } },
      orderBy: [{ createdAt: "desc" }, { friendId: "asc" }],
    }),
    occasions({ lang }),
  ]);
  const spoilerProtection = settings?.spoilerProtection ?? true;
  const hideOwnMarks = spoilerProtection && !reveal;
  const ids = lists.map((l) => l.db_id);
  const ownedIds = lists.filter((l) => l.role === "owner").map((l) => l.db_id);

  const [itemsByList, itemFacts, members] = await Promise.all([
    Promise.all(ids.map(async (id) => [id, await readListItems(id)] as const)).then((rows) => new Map(rows)),
    // What the shared items read does not carry: the market each item was saved for, and where from.
    ids.length
      ? db.listItem.findMany({
          where: { wishlistId: { in: ids } },
          select: { id: true, market: true, sourceLabel: true, sourceDomain: true, sourceShopId: true },
        })
      : Promise.resolve([]),
    ownedIds.length
      ? db.wishlistMember.findMany({
          where: { wishlistId: { in: ownedIds }, role: "editor" },
          select: { wishlistId: true, user: { select: personFields } },
          orderBy: [{ createdAt: "asc" }, { userId: "asc" }],
        })
      : Promise.resolve([]),
  ]);
  const facts = new Map(itemFacts.map((f) => [f.id, f]));
  const shopIds = [...new Set(itemFacts.map((f) => f.sourceShopId).filter((id): id is number => id !== null))];
  const shopNames = new Map(
    shopIds.length
      ? (await db.platformShop.findMany({ where: { id: { in: shopIds } }, select: { id: true, name: true } })).map((s) => [s.id, s.name])
      : [],
  );

  const friends: Person[] = friendRows.map((r) => ({ userId: r.friend.id, name: ownerName(r.friend) || "?" }));

  const present = (list: (typeof lists)[number]): MyList => {
    const isOwner = list.role === "owner";
    const items = (itemsByList.get(list.db_id) ?? []).map((row): MyItem => {
      const fact = facts.get(row.id);
      // The price of the market the item was saved for, then the page's language (serialize.ts picks).
      const product = hostedProduct(row, { market: fact?.market || undefined, lang });
      const shopName = fact?.sourceShopId != null ? shopNames.get(fact.sourceShopId) : null;
      return {
        itemId: product.item_id,
        title: product.title,
        imageUrl: safeImageUrl(product.imageUrl),
        priceMinor: product.price_minor,
        currency: product.currency,
        shop: shopName || fact?.sourceLabel || fact?.sourceDomain?.replace(/^www\./, "") || hostOf(product.affiliateUrl),
        productUrl: product.affiliateUrl && isHttpUrl(product.affiliateUrl) ? product.affiliateUrl : null,
        priority: product.priority,
        addedAt: product.added_at,
        // The owner's gifts stay a surprise (as on the share page); a collaborator sees the marks.
        purchased: isOwner && hideOwnMarks ? null : product.purchased,
      };
    });
    const collaborators: Person[] = isOwner
      ? members.filter((m) => m.wishlistId === list.db_id).map((m) => ({ userId: m.user.id, name: ownerName(m.user) || "?" }))
      : [];
    const taken = new Set(collaborators.map((c) => c.userId));
    const occasion = occasionList.occasions.find((o) => o.slug === list.occasion_slug);
    return {
      token: list.id,
      dbId: list.db_id,
      name: list.name,
      description: list.description,
      occasionSlug: list.occasion_slug,
      occasionTitle: occasion?.title ?? "",
      sharePublic: list.share_public,
      role: isOwner ? "owner" : "editor",
      ownerName: list.owner_name,
      itemCount: list.productCount,
      items,
      shareUrl: list.share_public ? shareUrlOf(lang, list.id) : null,
      collaborators,
      invitable: isOwner ? friends.filter((f) => !taken.has(f.userId)) : [],
    };
  };

  // Newest first and stable: an edit does not move a list away from under the shopper's pointer.
  const all = lists.map(present).sort((a, b) => b.dbId - a.dbId);
  const ownsMarks = all.some((l) => l.role === "owner" && l.items.length > 0);
  return {
    lang,
    account: { email: identity.email, isAnonymous: identity.isAnonymous },
    spoiler: spoilerProtection && ownsMarks ? (reveal ? "revealed" : "hidden") : null,
    hasFriends: friends.length > 0,
    alerts: await alertConsentOf(identity.userId),
    owned: all.filter((l) => l.role === "owner"),
    shared: all.filter((l) => l.role === "editor"),
    occasions: occasionList.occasions.map((o) => ({ slug: o.slug, title: o.title })),
    connections: (await connectionsOf(identity.userId)).connections,
  };
}
