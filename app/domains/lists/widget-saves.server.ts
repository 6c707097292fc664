// The shopper's saved products as a partner's widget sees them (SPEC 4.1
// rules for saved products).
import { db } from "~/db.server";
import { readDb } from "~/db/replica.server";
import type { Identity } from "~/domains/identity/identity.server";
import { notFound } from "~/lib/api/errors";
import { parseItemId } from "./access.server";
import { itemInclude } from "./items.server";
import { savedProduct } from "./serialize";
import { type Locale } from "~/domains/products/localization";
import { wishRefSigner } from "./wish-ref.server";
import { publish } from "~/domains/events/events.server";
import { originHost } from "~/domains/widget/origin";
import type { WidgetClaims } from "~/domains/widget/token.server";

/** Items saved through this partner, or (for items without partner) from this widget's domain. */
function fromThisPartner(widget: Pick<WidgetClaims, "partnerId" | "origin">) {
  return {
    OR: [{ sourcePartnerId: widget.partnerId }, { sourcePartnerId: null, sourceDomain: originHost(widget.origin) }],
  };
}

/**
 * Rule 1: filtered to the partner (domain fallback). Rule 2: when that
 * leaves nothing although the user has saved products, all of them — only
 * for the shopper's own account token (the hosted pages). A shop page's
 * partner-scoped credential sees what was saved through this partner and
 * nothing else (docs/storefront-protocol.md).
 */
export async function savedProductsForWidget(user: Identity, widget: WidgetClaims, locale: Locale) {
  const mine = { wishlist: { ownerId: user.userId } };
  const query = { include: itemInclude, orderBy: [{ addedAt: "desc" as const }, { id: "desc" as const }] };
  // readDb: the read replica when the route reads through publicReads (app/db/replica.server.ts).
  let items = await readDb.listItem.findMany({ where: { ...mine, ...fromThisPartner(widget) }, ...query });
  if (items.length === 0 && user.partnerScope === undefined) items = await readDb.listItem.findMany({ where: mine, ...query });
  // `wish_ref`: the item's signed reference, which the basket drawer puts on its
  // cart lines so the shop's order can confirm the purchase (docs/shopify.md "Shopify webhooks").
  const sign = await wishRefSigner("drawer");
  return { products: items.map((i) => ({ ...savedProduct(i, locale), wish_ref: sign(i.id) })) };
}

/**
 * What a shop page's hearts need of the same items (`POST /widget/init` with `saved: true`): each
 * item's product page and id, newest first; the shopper credential's view (this partner only).
 */
export async function savedUrlsForWidget(userId: string, widget: Pick<WidgetClaims, "partnerId" | "origin">) {
  const items = await db.listItem.findMany({
    where: { wishlist: { ownerId: userId }, ...fromThisPartner(widget) },
    orderBy: [{ addedAt: "desc" }, { id: "desc" }],
    select: { id: true, product: { select: { canonicalUrl: true } } },
  });
  return items.map((i) => ({ url: i.product.canonicalUrl, item_id: i.id }));
}

/** `DELETE /widget/saved-products/{itemId}`: only an item of the user saved from this partner's domain. */
export async function deleteSavedProductForWidget(userId: string, widget: WidgetClaims, rawItemId: string | undefined) {
  const id = parseItemId(rawItemId);
  const { count } = await db.listItem.deleteMany({
    where: { id, wishlist: { ownerId: userId }, ...fromThisPartner(widget) },
  });
  if (count === 0) throw notFound("not_found", "No item saved from this shop with that id");
  await publish("saves.changed", { userId });
  return { ok: true, deleted: id };
}
