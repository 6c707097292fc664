// The customer account page "Wishlist": a signed-in customer's saved
// products of one shop, removing one, and sharing the list that holds them.
import type { Lang } from "~/lib/lang";
import { db } from "~/db.server";
import { forbidden, notFound } from "~/lib/api/errors";
import { parseItemId } from "~/domains/lists/access.server";
import { itemInclude } from "~/domains/lists/items.server";
import { updateList } from "~/domains/lists/lists.server";
import { shareUrl } from "~/domains/previews/link-preview.server";
import { savedProduct } from "~/domains/lists/serialize";
import { wishRefSigner } from "~/domains/lists/wish-ref.server";
import type { Locale } from "~/domains/products/localization";
import { queueCustomerMirrors } from "./mirror-queue.server";
import type { ShopCustomerIdentity } from "./session.server";
import { itemsOfShop, listsStoreMayPublish, type ShopScope } from "~/domains/lists/shop-items";

async function shopOf(customer: ShopCustomerIdentity) {
  return db.platformShop.findUniqueOrThrow({
    where: { id: customer.shopId },
    select: { id: true, partnerId: true, domain: true, primaryDomain: true, name: true },
  });
}

const customersItems = (customer: ShopCustomerIdentity, shop: ShopScope) => ({
  wishlist: { ownerId: customer.userId },
  ...itemsOfShop(shop),
});

/**
 * Shopify's add-to-cart address on the shop's storefront (the theme cart
 * form's `/cart/add`, which a GET follows too) with the item's signed
 * reference as a hidden line-item property, so `orders/create` confirms the
 * purchase; null without a numeric variant (the product page is the way then).
 */
export function cartAddUrl(storefrontHost: string, variantId: string | null, wishRef: string): string | null {
  if (!variantId || !/^\d{1,20}$/.test(variantId)) return null;
  const query = new URLSearchParams({ id: variantId, quantity: "1", "properties[_wish_ref]": wishRef });
  return `https://${storefrontHost}/cart/add?${query}`;
}

/** `GET /customer-account/items`: newest first, with the signed reference and the cart link. */
export async function customerWishlist(customer: ShopCustomerIdentity, locale: Locale) {
  const shop = await shopOf(customer);
  const items = await db.listItem.findMany({
    where: customersItems(customer, shop),
    include: itemInclude,
    orderBy: [{ addedAt: "desc" }, { id: "desc" }],
    take: 250,
  });
  const sign = await wishRefSigner("account_page");
  const storefront = shop.primaryDomain ?? shop.domain;
  return {
    shop: { domain: shop.domain, name: shop.name },
    products: items.map((item) => {
      const ref = sign(item.id);
      return { ...savedProduct(item, locale), wish_ref: ref, cart_url: cartAddUrl(storefront, item.variantId, ref) };
    }),
  };
}

/** `DELETE /customer-account/items/{itemId}`: only the customer's own item of this shop; any other is 404. */
export async function removeCustomerItem(customer: ShopCustomerIdentity, rawItemId: string | undefined) {
  const id = parseItemId(rawItemId);
  const shop = await shopOf(customer);
  const { count } = await db.listItem.deleteMany({ where: { id, ...customersItems(customer, shop) } });
  if (count === 0) throw notFound("not_found", "No item of yours from this shop has that id");
  await queueCustomerMirrors(customer.userId);
  return { ok: true as const, deleted: id };
}

/**
 * `POST /customer-account/share`: makes the list holding the customer's
 * newest item of this shop public (a share action, SPEC 3) and returns its
 * share page; 404 while nothing is saved.
 */
export async function shareCustomerWishlist(customer: ShopCustomerIdentity, lang: Lang) {
  const shop = await shopOf(customer);
  const newest = await db.listItem.findFirst({
    where: customersItems(customer, shop),
    orderBy: [{ addedAt: "desc" }, { id: "desc" }],
    select: { wishlist: { select: { shareToken: true } } },
  });
  if (!newest) throw notFound("not_found", "Nothing saved from this shop yet");
  const token = newest.wishlist.shareToken;
  // A joined account's list with other shops' items is not the store's to publish (docs/identity.md).
  const publishable = await db.wishlist.count({ where: { shareToken: token, ...listsStoreMayPublish(shop) } });
  if (!publishable) throw forbidden("forbidden", "This list holds products of other shops: share it on My lists");
  await updateList(token, customer.userId, { share_public: true });
  return { ok: true as const, list_id: token, share_url: shareUrl(token, lang) };
}
