// Hosted lists: create, read, update, delete, the user's default list, and
// the public (share-token) view of a list.
import { randomBytes } from "node:crypto";
import { db } from "~/db.server";
import { isUniqueViolation } from "~/db/errors";
import { badRequest, notFound, unauthorized } from "~/lib/api/errors";
import { recordListView, recordShare } from "~/domains/metering/actions.server";
import type { ListViewer } from "~/domains/metering/actions.server";
import { log, errorFields } from "~/lib/log.server";
import type { Identity } from "~/domains/identity/identity.server";
import { listWithRole, requireToken, type ListRole } from "./access.server";
import { hostedList, hostedListDetail, occasionTitle, type ListRow } from "./serialize";
import { localeLanguage, type Locale } from "~/domains/products/localization";
import { deleteOrphanManualProducts } from "~/domains/products/manual-products.server";
import { publicListByToken } from "./lists.sql.server";
import { publish } from "~/domains/events/events.server";
import { listKey, purgeCdn } from "~/domains/cdn/purge.server";


/** 144 random bits from the CSPRNG (GUIDE section 8 asks for at least 128). */
export const newShareToken = () => randomBytes(18).toString("base64url");

const ownerFields = { id: true, displayName: true, username: true, avatarUrl: true, isPremium: true } as const;
const listInclude = { owner: { select: ownerFields } } as const;

interface ListCounts {
  products: number;
  collaborators: number;
}

/**
 * Items and editors of the given lists, counted from those lists' rows
 * through the indexes leading with `wishlistId`. (A Prisma `_count` include
 * groups the whole ListItem table on every call: its cost grows with all
 * lists' items.)
 */
async function countsOf(ids: number[]): Promise<Map<number, ListCounts>> {
  const counts = new Map(ids.map((id) => [id, { products: 0, collaborators: 0 }]));
  if (ids.length === 0) return counts;
  const [items, editors] = await Promise.all([
    db.listItem.groupBy({ by: ["wishlistId"], where: { wishlistId: { in: ids } }, _count: { _all: true } }),
    db.wishlistMember.groupBy({ by: ["wishlistId"], where: { wishlistId: { in: ids }, role: "editor" }, _count: { _all: true } }),
  ]);
  for (const row of items) counts.get(row.wishlistId)!.products = row._count._all;
  for (const row of editors) counts.get(row.wishlistId)!.collaborators = row._count._all;
  return counts;
}

/** The lists in the API's shape, with their counts. */
async function present<T extends ListRow>(lists: T[], roleOf: (list: T) => ListRole) {
  const counts = await countsOf(lists.map((l) => l.id));
  return lists.map((l) => hostedList(l, roleOf(l), counts.get(l.id)!));
}

const presentOne = async (list: ListRow, role: ListRole) => (await present([list], () => role))[0]!;

/** `POST /hosted/lists`: lists the user owns or edits, most recently updated first. */
export async function listsOfUser(userId: string) {
  // The lists the user edits first (index on the member's userId), so the
  // list read below is two index lookups rather than a scan testing each list.
  const edited = await db.wishlistMember.findMany({ where: { userId, role: "editor" }, select: { wishlistId: true } });
  const lists = await db.wishlist.findMany({
    where: edited.length ? { OR: [{ ownerId: userId }, { id: { in: edited.map((m) => m.wishlistId) } }] } : { ownerId: userId },
    include: listInclude,
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
  });
  return { lists: await present(lists, (l) => (l.ownerId === userId ? "owner" : "editor")) };
}

/** `POST /hosted/me/lists` (body checked by the route's schema: name trimmed and non-empty). */
/** `throughPartnerId`: made in that shop's save dialog; that shop's page may then save into it (docs/identity.md). */
export async function createList(userId: string, input: { name: string; description?: string | null }, throughPartnerId: number | null = null) {
  const list = await db.wishlist.create({
    data: { shareToken: newShareToken(), ownerId: userId, name: input.name, description: input.description ?? "", createdThroughPartnerId: throughPartnerId },
    include: listInclude,
  });
  return { ok: true, list: await presentOne(list, "owner"), token: list.shareToken };
}

/** `GET /hosted/lists/{token}`: owner or editor. */
export async function getList(token: string | undefined, userId: string, locale: Locale) {
  const { list, role } = await listWithRole(token, userId, "editor");
  const full = await db.wishlist.findUniqueOrThrow({ where: { id: list.id }, include: listInclude });
  const occasion = full.occasionSlug ? await db.occasion.findUnique({ where: { slug: full.occasionSlug } }) : null;
  return { list: { ...(await presentOne(full, role)), occasion_title: occasionTitle(occasion, locale) } };
}

/** What `PUT /hosted/lists/{token}` may change (the route's schema checked types and lengths). */
export interface ListUpdate {
  name?: string | null;
  /** Alias of `name`. */
  title?: string | null;
  description?: string | null;
  share_public?: boolean;
  image_path?: string | null;
  occasion_slug?: string | null;
}

/** `PUT /hosted/lists/{token}`: owner only. Making a list public counts a share action. */
export async function updateList(token: string | undefined, userId: string, input: ListUpdate) {
  const { list } = await listWithRole(token, userId, "owner");
  const data: Record<string, unknown> = {};
  const name = input.name ?? input.title ?? undefined;
  if (name !== undefined) {
    if (!name.trim()) throw badRequest("missing_name", "name must not be empty");
    data.name = name.trim();
  }
  if (input.description != null) data.description = input.description;
  if (input.image_path != null) data.imagePath = input.image_path;
  if (input.share_public !== undefined) data.sharePublic = input.share_public;
  const occasion = input.occasion_slug ?? undefined;
  if (occasion !== undefined) {
    if (occasion && !(await db.occasion.findUnique({ where: { slug: occasion } }))) {
      throw badRequest("invalid_occasion", `Unknown occasion ${JSON.stringify(occasion)}; see GET /hosted/occasions`);
    }
    data.occasionSlug = occasion;
  }
  const updated = await db.wishlist.update({ where: { id: list.id }, data, include: listInclude });
  await purgeCdn([listKey(list.id)]);
  if (!list.sharePublic && updated.sharePublic) {
    await recordShare(updated.id);
    await publish("list.shared", { id: updated.id, ownerId: updated.ownerId, name: updated.name, shareToken: updated.shareToken, sharedAt: updated.updatedAt });
  }
  return { ok: true, list: await presentOne(updated, "owner") };
}

/** `DELETE /hosted/lists/{token}`: owner only; items go with the list, other lists are untouched. */
export async function deleteList(token: string | undefined, userId: string) {
  const { list } = await listWithRole(token, userId, "owner");
  const productIds = (await db.listItem.findMany({ where: { wishlistId: list.id }, select: { productId: true } })).map(
    (i) => i.productId,
  );
  await db.wishlist.delete({ where: { id: list.id } });
  await purgeCdn([listKey(list.id)]);
  await deleteOrphanManualProducts(productIds);
  return { ok: true, deleted: list.shareToken };
}

/** `POST /hosted/me/init`: the user row exists and has a default list; returns it. */
export async function initUser(identity: Identity, locale: Locale) {
  const user = await db.user.findUnique({ where: { id: identity.userId }, select: { id: true, isAnonymous: true } });
  if (!user) throw unauthorized("User no longer exists");
  const name = localeLanguage(locale) === "de" ? "Meine Wunschliste" : "My wishlist";
  let list = await db.wishlist.findUnique({
    where: { ownerId_defaultKey: { ownerId: user.id, defaultKey: "default" } },
    include: listInclude,
  });
  if (!list) {
    try {
      list = await db.wishlist.create({
        data: { shareToken: newShareToken(), ownerId: user.id, name, defaultKey: "default" },
        include: listInclude,
      });
    } catch (err) {
      // A concurrent init created it first.
      if (!isUniqueViolation(err)) throw err;
      list = await db.wishlist.findUniqueOrThrow({
        where: { ownerId_defaultKey: { ownerId: user.id, defaultKey: "default" } },
        include: listInclude,
      });
    }
  }
  return { ok: true, user: { id: user.id, is_anonymous: user.isAnonymous }, list: await presentOne(list, "owner") };
}

/** A public list by share token; private and unknown lists are indistinguishable (404). */
export async function publicList(token: string | undefined) {
  const row = await publicListByToken(requireToken(token));
  if (!row || !row.sharePublic) throw notFound("not_found", "List not found");
  const { displayName, username, avatarUrl, isPremium, itemCount, occasionTitleDe, occasionTitleEn, ...list } = row;
  return {
    ...list,
    owner: { id: list.ownerId, displayName, username, avatarUrl, isPremium },
    itemCount,
    occasion: occasionTitleDe === null || occasionTitleEn === null ? null : { titleDe: occasionTitleDe, titleEn: occasionTitleEn },
  };
}

/** `GET /hosted/public/lists/{token}`: counts a list_view for `viewer` (see listViewer; null counts nothing). */
export async function publicListDetail(token: string | undefined, locale: Locale, viewer: ListViewer | null) {
  return describePublicList(await publicList(token), locale, viewer);
}

/** HostedListDetail of a list publicList returned, counting a list_view for `viewer` (share pages read the list first). */
export async function describePublicList(list: Awaited<ReturnType<typeof publicList>>, locale: Locale, viewer: ListViewer | null) {
  // A view is counted, but a metering hiccup must not hide the list from the gift-giver.
  await recordListView(list.id, viewer).catch((err) => log.error("list view not counted", errorFields(err)));
  return { list: hostedListDetail(list, list.itemCount, list.occasion, locale) };
}

/** `GET /hosted/occasions`. */
export async function occasions(locale: Locale) {
  const rows = await db.occasion.findMany({ orderBy: { position: "asc" } });
  return {
    occasions: rows.map((o) => ({ slug: o.slug, title: occasionTitle(o, locale), titles: { de: o.titleDe, en: o.titleEn } })),
  };
}
