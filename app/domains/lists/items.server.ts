// Items of a list: reading them, the purchased flag, manual items, price
// overrides, removing, moving/copying between lists, re-scraping.
import { db } from "~/db.server";
import { publish } from "~/domains/events/events.server";
import { isPlainObject } from "~/lib/api/schemas";
import { ApiError, badRequest, notFound } from "~/lib/api/errors";
import { log, errorFields } from "~/lib/log.server";
import { isUniqueViolation } from "~/db/errors";
import { listWithRole, parseItemId } from "./access.server";
import { hostedProduct, ITEM_PRODUCT_COLUMNS, selectOf } from "./serialize";
import { type Locale } from "~/domains/products/localization";
import { publicList } from "./lists.server";
import { readListItems } from "./items.sql.server";
import { deleteOrphanManualProducts } from "~/domains/products/manual-products.server";
import { notifyItemPurchased } from "~/domains/consumer/notifications.server";
import { listKey, productKey, purgeCdn } from "~/domains/cdn/purge.server";

/** What HostedProduct and SavedProduct are made from: HostedProduct's product columns (serialize.ts) and SavedProduct's. */
export const itemInclude = {
  product: {
    select: {
      ...selectOf(ITEM_PRODUCT_COLUMNS),
      isManual: true,
      productType: true,
      tags: true,
      localizations: true,
    },
  },
} as const;

async function itemsOf(wishlistId: number, locale: Locale) {
  return { products: (await readListItems(wishlistId)).map((i) => hostedProduct(i, locale)) };
}

/** `GET /hosted/lists/{token}/items`: owner or editor. */
export async function listItems(token: string | undefined, userId: string, locale: Locale) {
  const { list } = await listWithRole(token, userId, "editor");
  return itemsOf(list.id, locale);
}

/** `GET /hosted/public/lists/{token}/items`. */
export async function publicListItems(token: string | undefined, locale: Locale) {
  const list = await publicList(token);
  return itemsOf(list.id, locale);
}

function parsePurchased(body: unknown): boolean {
  const value = (body as { purchased?: unknown } | undefined)?.purchased;
  if (typeof value !== "boolean") throw badRequest("invalid_input", "purchased must be true or false");
  return value;
}

type PurchasedList = { id: number; ownerId: string; shareToken: string; name: string };

/** `purchaserId`: the signed-in member who marked it, null on the public route. */
async function setPurchased(list: PurchasedList, itemId: number, purchased: boolean, purchaserId: string | null) {
  let count: number;
  let bought = 0;
  try {
    const data = { purchased, purchasedAt: purchased ? new Date() : null };
    // Marking an unpurchased item is what notifies the owner (once, not on a repeated mark).
    if (purchased) ({ count: bought } = await db.listItem.updateMany({ where: { id: itemId, wishlistId: list.id, purchased: false }, data }));
    count = bought || (await db.listItem.updateMany({ where: { id: itemId, wishlistId: list.id }, data })).count;
  } catch (err) {
    log.error("purchased update failed", errorFields(err));
    throw new ApiError(500, "update_failed", "The purchased flag could not be saved");
  }
  if (count === 0) throw notFound("not_found", "Item not found in this list");
  await purgeCdn([listKey(list.id)]);
  if (bought > 0) await notifyItemPurchased(list, itemId, purchaserId);
  return { ok: true, purchased };
}

/** `PUT /hosted/lists/{token}/items/{itemId}/purchased`: owner or editor. */
export async function setPurchasedAsMember(token: string | undefined, rawItemId: string | undefined, userId: string, body: unknown) {
  const { list } = await listWithRole(token, userId, "editor");
  return setPurchased(list, parseItemId(rawItemId), parsePurchased(body), userId);
}

/** `PUT /hosted/public/lists/{token}/items/{itemId}/purchased`: anyone with the link of a public list. */
export async function setPurchasedPublic(token: string | undefined, rawItemId: string | undefined, body: unknown) {
  const list = await publicList(token);
  return setPurchased(list, parseItemId(rawItemId), parsePurchased(body), null);
}

// ---------------------------------------------------------------- item edits


function optionalMinor(value: unknown, field: string): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw badRequest("invalid_input", `${field} must be a non-negative integer in minor units`);
  }
  return value;
}

export function optionalCurrency(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string" || !/^[A-Za-z]{3}$/.test(value)) {
    throw badRequest("invalid_input", "currency must be an ISO 4217 code");
  }
  return value.toUpperCase();
}

export function optionalPriority(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > 4) {
    throw badRequest("invalid_priority", "priority must be an integer from 1 to 4");
  }
  return value;
}

async function findItem(wishlistId: number, itemId: number) {
  const item = await db.listItem.findFirst({ where: { id: itemId, wishlistId }, include: itemInclude });
  if (!item) throw notFound("not_found", "Item not found in this list");
  return item;
}

/** A manual item as the route's schema checked it (title trimmed and non-empty, image URL, currency, priority). */
export interface ManualItemInput {
  title: string;
  description?: string | null;
  imageUrl?: string | null;
  price?: number | null;
  currency?: string | null;
  priority?: number | null;
  marketCode?: string | null;
}

/**
 * `POST /hosted/lists/{token}/items/manual`: an item without a product URL.
 * Body `{title, description?, imageUrl?, price?, currency?, priority?, marketCode?}`.
 */
export async function createManualItem(token: string | undefined, userId: string, input: ManualItemInput, locale: Locale) {
  const { list } = await listWithRole(token, userId, "editor");
  const title = input.title;
  const description = input.description?.slice(0, 5000) ?? "";
  const imageUrl = input.imageUrl ?? null;
  const price = input.price ?? null;
  const currency = input.currency?.toUpperCase() ?? null;
  const priority = input.priority ?? null;
  const market = input.marketCode ?? "";
  const item = await db.$transaction(async (tx) => {
    const product = await tx.product.create({
      data: {
        isManual: true,
        createdByUserId: userId,
        localizations: {
          create: { market, title, description, originalImageUrl: imageUrl, priceMinor: price, currency },
        },
      },
    });
    const created = await tx.listItem.create({
      data: { wishlistId: list.id, productId: product.id, addedByUserId: userId, priority, market },
      include: itemInclude,
    });
    await tx.wishlist.update({ where: { id: list.id }, data: { updatedAt: new Date() } });
    return created;
  });
  await purgeCdn([listKey(list.id)]);
  return { ok: true, item: hostedProduct(item, locale) };
}

/**
 * `PUT /hosted/lists/{token}/items/{itemId}`: owner or editor. Body any of
 * `price_override_minor` (null removes it), `currency_override`, `purchased`, `priority`.
 */
export async function updateItem(token: string | undefined, rawItemId: string | undefined, userId: string, body: unknown, locale: Locale) {
  const { list } = await listWithRole(token, userId, "editor");
  const itemId = parseItemId(rawItemId);
  const before = await findItem(list.id, itemId);
  const input = isPlainObject(body) ? body : {};
  const data: Record<string, unknown> = {};
  const override = optionalMinor(input.price_override_minor, "price_override_minor");
  if (override !== undefined) {
    data.priceOverrideMinor = override;
    if (override === null) data.currencyOverride = null;
  }
  const currency = optionalCurrency(input.currency_override);
  if (currency !== undefined) data.currencyOverride = currency;
  if (input.purchased !== undefined) {
    if (typeof input.purchased !== "boolean") throw badRequest("invalid_input", "purchased must be true or false");
    data.purchased = input.purchased;
    data.purchasedAt = input.purchased ? new Date() : null;
  }
  const priority = optionalPriority(input.priority);
  if (priority !== undefined) data.priority = priority;
  if (Object.keys(data).length === 0) throw badRequest("nothing_to_update", "Send price_override_minor, currency_override, purchased or priority");
  try {
    const item = await db.listItem.update({ where: { id: itemId }, data, include: itemInclude });
    await purgeCdn([listKey(list.id)]);
    if (data.purchased === true && !before.purchased) await notifyItemPurchased(list, itemId, userId);
    return { ok: true, item: hostedProduct(item, locale) };
  } catch (err) {
    if (override === null) throw badRequest("override_delete_failed", "The price override could not be removed");
    log.error("item update failed", errorFields(err));
    throw new ApiError(500, "update_failed", "The item could not be updated");
  }
}

/** `DELETE /hosted/lists/{token}/items/{itemId}`: owner or editor; a manual product goes with its last item. */
export async function deleteItem(token: string | undefined, rawItemId: string | undefined, userId: string) {
  const { list } = await listWithRole(token, userId, "editor");
  const itemId = parseItemId(rawItemId);
  const item = await findItem(list.id, itemId);
  try {
    await db.listItem.delete({ where: { id: itemId } });
  } catch (err) {
    log.error("item delete failed", errorFields(err));
    throw badRequest("item_delete_failed", "The item could not be deleted");
  }
  if (await db.listItem.findUnique({ where: { id: itemId }, select: { id: true } })) {
    throw new ApiError(500, "item_not_deleted", "The item still exists after delete");
  }
  await deleteOrphanManualProducts([item.productId]);
  await db.wishlist.update({ where: { id: list.id }, data: { updatedAt: new Date() } });
  await purgeCdn([listKey(list.id)]);
  await publish("saves.changed", { userId: list.ownerId });
  return { ok: true, deleted: itemId };
}

/**
 * `POST /hosted/lists/{token}/items/{itemId}/move`: owner of the source list
 * only; body `{target: <share token> | targetWishlistId: <db_id>, copy?: boolean}`.
 * The caller must be owner or editor of the target. If the target already
 * holds the product, that item is kept and (when moving) the source item removed.
 */
export async function moveItem(token: string | undefined, rawItemId: string | undefined, userId: string, body: unknown, locale: Locale) {
  const { list } = await listWithRole(token, userId, "owner", "move_requires_owner");
  const itemId = parseItemId(rawItemId);
  const item = await findItem(list.id, itemId);
  const input = isPlainObject(body) ? body : {};
  const copy = input.copy === true;
  let target;
  if (typeof input.target === "string" && input.target) {
    target = (await listWithRole(input.target, userId, "editor")).list;
  } else if (typeof input.targetWishlistId === "number") {
    const row = await db.wishlist.findUnique({ where: { id: input.targetWishlistId } });
    if (!row) throw notFound("not_found", "Target list not found");
    target = (await listWithRole(row.shareToken, userId, "editor")).list;
  } else {
    throw badRequest("missing_target", "target (share token) or targetWishlistId is required");
  }
  if (target.id === list.id) throw badRequest("same_list", "Source and target are the same list");

  let moved;
  try {
    moved = await db.listItem.create({
      data: {
        wishlistId: target.id,
        productId: item.productId,
        addedByUserId: userId,
        purchased: item.purchased,
        purchasedAt: item.purchasedAt,
        priority: item.priority,
        market: item.market,
        offerId: item.offerId,
        sourceLabel: item.sourceLabel,
        priceOverrideMinor: item.priceOverrideMinor,
        currencyOverride: item.currencyOverride,
        ownTitle: item.ownTitle,
        ownDescription: item.ownDescription,
        ownImageUrl: item.ownImageUrl,
        ownPriceMinor: item.ownPriceMinor,
        ownCurrency: item.ownCurrency,
        checkoutMeta: item.checkoutMeta ?? undefined,
        variantId: item.variantId,
        sourcePartnerId: item.sourcePartnerId,
        sourceShopId: item.sourceShopId,
        sourceDomain: item.sourceDomain,
      },
      include: itemInclude,
    });
  } catch (err) {
    if (!isUniqueViolation(err)) {
      log.error("move insert failed", errorFields(err));
      throw new ApiError(500, "insert_failed", "The item could not be added to the target list");
    }
    moved = await db.listItem.findFirstOrThrow({ where: { wishlistId: target.id, productId: item.productId }, include: itemInclude });
  }
  if (!copy) {
    try {
      await db.listItem.delete({ where: { id: item.id } });
    } catch (err) {
      log.error("move source delete failed", errorFields(err));
      throw new ApiError(500, "source_delete_failed", "The item was copied but could not be removed from the source list");
    }
  }
  await db.wishlist.updateMany({ where: { id: { in: [list.id, target.id] } }, data: { updatedAt: new Date() } });
  await purgeCdn([listKey(list.id), listKey(target.id)]);
  return { ok: true, copied: copy, item: hostedProduct(moved, locale) };
}

/** `DELETE /hosted/products/{productId}`: a manual product the user created, with its items. */
export async function deleteManualProduct(rawProductId: string | undefined, userId: string) {
  if (!rawProductId) throw badRequest("missing_id", "Product id missing from the path");
  const id = Number(rawProductId);
  const product = Number.isSafeInteger(id) ? await db.product.findUnique({ where: { id } }) : null;
  if (!product || !product.isManual || product.createdByUserId !== userId) throw notFound("not_found", "Product not found");
  await db.product.delete({ where: { id } });
  await purgeCdn([productKey(id)]);
  return { ok: true, deleted: id };
}
