// The Shopify Flow action "Add product to customer's wishlist" (docs/shopify.md
// "Shopify Flow"): Flow names a customer and a product of the shop; the
// product goes onto the customer's default list, through the same save as a
// click on the storefront (metered as a save action, the customer metafield
// mirror and the "Product added to wishlist" trigger follow). The customer's
// shopper account and link are made on first use, as the app proxy makes them.
import { db } from "~/db.server";
import { adminQuery, type AdminGraphql } from "~/domains/shops/admin-graphql.server";
import { shopifyId } from "~/domains/shops/payload";
import { toMinor } from "~/lib/money";
import { shopperOfCustomer } from "~/domains/shop-customers/shop-customers.server";
import { initUser } from "~/domains/lists/lists.server";
import { saveProduct } from "~/domains/lists/save.server";
import { saveRequestBody } from "~/domains/products/schemas";
import { canonicalUrl } from "~/domains/products/canonical-url";
import { badRequest, notFound } from "~/lib/api/errors";
import { queueProductAdded } from "./triggers.server";

export const ADD_TO_WISHLIST_HANDLE = "wishlist-add-product";

const PRODUCT = `query WishlistFlowProduct($id: ID!) {
  product(id: $id) { handle title featuredImage { url } priceRangeV2 { minVariantPrice { amount currencyCode } } }
}`;

interface FlowProduct {
  handle: string;
  title: string;
  featuredImage: { url: string } | null;
  priceRangeV2: { minVariantPrice: { amount: string; currencyCode: string } } | null;
}

export interface FlowActionRequest {
  shopDomain: string;
  /** The action's `properties`: what the merchant's workflow filled in. */
  properties: Record<string, unknown>;
  /** The shop's Admin API (the action request's offline session). */
  graphql: AdminGraphql;
}

/** Adds the product to the customer's default list; a product already on it stays as it is. */
export async function addProductToCustomerWishlist(request: FlowActionRequest) {
  const customerId = shopifyId(request.properties.customer_id);
  const productId = shopifyId(request.properties.product_id);
  // Shopify's ids are positive: 0 (or 00…) names nothing, and would cost an Admin API call to learn it.
  if (!customerId || !productId || /^0+$/.test(customerId) || /^0+$/.test(productId)) throw badRequest("invalid_input", "properties.customer_id and properties.product_id must be Shopify ids");
  const shop = await db.platformShop.findUnique({
    where: { domain: request.shopDomain },
    select: { id: true, partnerId: true, domain: true, primaryDomain: true, active: true },
  });
  if (!shop || !shop.active) throw notFound("unknown_shop", "The shop has not installed the app");

  // The shop's own word about its product: the page address shoppers save, its title and price.
  const { product } = await adminQuery<{ product: FlowProduct | null }>(request.graphql, PRODUCT, { id: `gid://shopify/Product/${productId}` });
  if (!product) throw notFound("unknown_product", "The shop has no product with that id");
  const host = shop.primaryDomain ?? shop.domain;
  const url = canonicalUrl(`https://${host}/products/${encodeURIComponent(product.handle)}`);
  if (!url) throw notFound("unknown_product", "The product has no storefront address");
  const price = product.priceRangeV2?.minVariantPrice;
  const priceMinor = price ? toMinor(price.amount, price.currencyCode) : null;

  const { userId } = await shopperOfCustomer(shop.id, customerId);
  const { list } = await initUser({ userId, sessionId: null, isAnonymous: true, email: null }, { lang: "en" });
  const body = saveRequestBody.parse({
    wishlistId: list.db_id,
    product: {
      url,
      title: product.title,
      productId,
      ...(product.featuredImage?.url ? { imageUrl: product.featuredImage.url } : {}),
      ...(priceMinor !== null && price ? { price: priceMinor, currency: price.currencyCode } : {}),
    },
  });
  const onList = await db.listItem.count({ where: { wishlistId: list.db_id, product: { canonicalUrl: url } } });
  // Through the shop's channel, so it is metered as the shop's save; one address bucket per customer.
  const saved = await saveProduct({ userId, address: `flow:${shop.id}:${customerId}` }, body, {
    kind: "widget",
    widgetOrigin: `https://${host}`,
    partnerId: shop.partnerId,
    shopId: shop.id,
    domain: host,
  });
  // The platform named the product: the catalogue entry learns its Shopify id and shop, as the products webhooks teach it.
  await db.product.updateMany({
    where: { id: saved.product_id, rawProductId: null },
    data: { rawProductId: productId, sourceShopId: shop.id, sourcePartnerId: shop.partnerId, sourceDomain: host },
  });
  // A product new to the catalogue had no Shopify id when the save queued its trigger: queue it now (one event, one message).
  if (onList === 0) await queueProductAdded({ itemId: saved.item_id, userId, shopId: shop.id, productId: saved.product_id });
  return { ok: true as const, item_id: saved.item_id };
}
