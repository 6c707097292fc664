// What a shop's own storefront (the app proxy, docs/shopify.md "App proxy")
// does for a shopper: recognise a signed-in customer (their linked shopper
// account, shop-customers.server.ts), mint the shop page's shopper credential
// for it, and read, remove from and share the lists on the wishlist page. It
// never merges or joins accounts: that happens only on APP_URL, with the
// shopper's confirmation (docs/identity.md, "Joins and merges"). The shop is one Shopify has vouched
// for; `customerId` is the one its signed request names (or null for a guest).
import type { Lang } from "~/lib/lang";
import { db } from "~/db.server";
import { parseItemId } from "~/domains/lists/access.server";
import { itemInclude } from "~/domains/lists/items.server";
import { initUser, updateList } from "~/domains/lists/lists.server";
import { shareUrlOf } from "./my-lists.server";
import { savedProduct } from "~/domains/lists/serialize";
import { wishRefSigner } from "~/domains/lists/wish-ref.server";
import { liveGrant, shopperSessionOf } from "~/domains/widget/session-store.server";
import { savedUrlsForWidget } from "~/domains/lists/widget-saves.server";
import { ensureConsent, hasConsent } from "~/domains/widget/consent.server";
import { badRequest, forbidden, notFound } from "~/lib/api/errors";
import { queueCustomerMirrors } from "~/domains/customer-accounts/mirror-queue.server";
import { itemsOfShop, listsStoreMayPublish } from "~/domains/lists/shop-items";
import { shopperOfCustomer } from "~/domains/shop-customers/shop-customers.server";

export interface StorefrontShop {
  id: number;
  partnerId: number;
  domain: string;
  primaryDomain: string | null;
}

/** The wishlist page's language (the shop's locale). */
export type StorefrontLang = Lang;

// ------------------------------------------------------------ session

/**
 * `POST /apps/wishlist/session`: for a signed-in customer, the shopper
 * credential of their linked account (the shape of `/widget/session-restore`)
 * and the default list a save goes to, and their saved products of this shop
 * as the credential would read them (`saved`: product page and item id, so
 * the page's hearts cost no further request). A guest gets `session: null`: the
 * widget goes on as before. The body's `sid` is not read: a page's id binds nothing here.
 */
export async function customerSession(shop: StorefrontShop, customerId: string | null, lang: StorefrontLang) {
  if (!customerId) return { ok: true as const, customer: false, session: null, list: null, saved: [] };
  const { userId, isAnonymous } = await shopperOfCustomer(shop.id, customerId);
  // The link to this customer (made here, or by a join the shopper confirmed) is the consent for this shop;
  // read first: this runs on every page load of a signed-in customer, and the row is nearly always there.
  if (!(await hasConsent(userId, shop.partnerId))) await ensureConsent(userId, shop.partnerId, shop.primaryDomain ?? shop.domain);
  // No sign-in session of ours: the credential lives an access token's lifetime and is minted again
  // only through another request Shopify signs for this customer.
  const session = await shopperSessionOf({ userId, sessionId: null, isAnonymous }, shop.partnerId);
  // The list a one-click save goes to (the widget may not read the lists with this credential).
  const [{ list }, saved] = await Promise.all([
    initUser({ userId, sessionId: null, isAnonymous, email: null }, { lang }),
    savedUrlsForWidget(userId, { partnerId: shop.partnerId, origin: `https://${shop.primaryDomain ?? shop.domain}` }),
  ]);
  return { ok: true as const, customer: true, session, list: { id: list.db_id, name: list.name }, saved };
}

// ------------------------------------------------------------ the wishlist page

export interface PageItem {
  itemId: number;
  title: string;
  url: string | null;
  imageUrl: string | null;
  priceMinor: number | null;
  currency: string | null;
  /** Shopify variant id, when the save carried one: what the cart needs. */
  variantId: string | null;
  /** Signed item reference, the `_wish_ref` line-item property orders/create reads. */
  wishRef: string;
}

export interface PageList {
  /** The list's share token (its public id). */
  token: string;
  name: string;
  shareUrl: string | null;
  items: PageItem[];
}

const httpUrl = (url: string | null | undefined) => (url && /^https?:\/\//i.test(url) ? url : null);

/** The customer's lists with their items of this shop, newest item first; lists without such items are left out. */
export async function customerLists(shop: StorefrontShop, userId: string, lang: StorefrontLang): Promise<PageList[]> {
  const lists = await db.wishlist.findMany({
    where: { ownerId: userId, items: { some: itemsOfShop(shop) } },
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    take: 50,
    select: {
      shareToken: true,
      name: true,
      sharePublic: true,
      items: {
        where: itemsOfShop(shop),
        include: itemInclude,
        orderBy: [{ addedAt: "desc" }, { id: "desc" }],
        take: 200,
      },
    },
  });
  const sign = await wishRefSigner("wishlist_page");
  return lists.map((list) => ({
    token: list.shareToken,
    name: list.name,
    shareUrl: list.sharePublic ? shareUrlOf(lang, list.shareToken) : null,
    items: list.items.map((item) => {
      const p = savedProduct(item, { lang });
      const meta = item.checkoutMeta as { variant_id?: unknown } | null;
      const variant = item.variantId ?? (typeof meta?.variant_id === "string" || typeof meta?.variant_id === "number" ? String(meta.variant_id) : null);
      return {
        itemId: item.id,
        title: p.title ?? p.url ?? "",
        url: httpUrl(p.url),
        imageUrl: httpUrl(p.imageUrl),
        priceMinor: p.price_minor,
        currency: p.currency,
        variantId: variant && /^\d{1,20}$/.test(variant) ? variant : null,
        wishRef: sign(item.id),
      };
    }),
  }));
}

/** A widget session id as widget.js makes it, else null. */
export const widgetSid = (sid: unknown): string | null => (typeof sid === "string" && /^[\w-]{8,64}$/.test(sid) ? sid : null);

/**
 * The lists of this browser's guest on the wishlist page (`POST /apps/wishlist/items {sid}`):
 * what the widget session's grant names (the same the page's shopper credential would read).
 */
export async function guestLists(shop: StorefrontShop, rawSid: unknown, lang: StorefrontLang): Promise<PageList[]> {
  const sid = widgetSid(rawSid);
  if (!sid) return [];
  const grant = await liveGrant(shop.partnerId, sid);
  return grant ? customerLists(shop, grant.userId, lang) : [];
}

/** `POST /apps/wishlist/remove {item_id}`: only an item of the customer's own lists saved from this shop. */
export async function removeCustomerItem(shop: StorefrontShop, userId: string, rawItemId: unknown) {
  const id = parseItemId(typeof rawItemId === "number" ? String(rawItemId) : typeof rawItemId === "string" ? rawItemId : undefined);
  const { count } = await db.listItem.deleteMany({ where: { id, wishlist: { ownerId: userId }, ...itemsOfShop(shop) } });
  if (count === 0) throw notFound("not_found", "No item of yours saved from this shop with that id");
  await queueCustomerMirrors(userId);
  return { ok: true as const, deleted: id };
}

/**
 * `POST /apps/wishlist/share {list}`: makes the customer's list public (as "My lists" does) and answers its share link.
 * Only what is the store's to publish (docs/identity.md): the default list or a list made through this store,
 * with items of this shop and none of any other. Any other list is shared on "My lists", by the shopper.
 */
export async function shareCustomerList(shop: StorefrontShop, userId: string, token: unknown, lang: StorefrontLang) {
  if (typeof token !== "string" || !token || token.length > 100) throw badRequest("invalid_input", "list must be a list id");
  const shown = await db.wishlist.count({ where: { shareToken: token, ownerId: userId, ...listsStoreMayPublish(shop) } });
  if (!shown) throw forbidden("forbidden", "Only your lists with products of this store alone are shared from here");
  await updateList(token, userId, { share_public: true });
  return { ok: true as const, url: shareUrlOf(lang, token) };
}
