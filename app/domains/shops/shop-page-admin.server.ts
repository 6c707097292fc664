// The merchant's control of its shop pages (partner routes
// `/partner/shops/*`): handle, published flag, description and curated lists.
// Another partner's shop answers 404 `not_found`, as if it did not exist; a
// `member` (not an `owner`) of the partner may read but not change (403
// `forbidden`), whether with a portal login or with a personal access token
// the member created (a token acts with its creator's role).
import { z } from "zod";
import { db } from "~/db.server";
import { isUniqueViolation } from "~/db/errors";
import { ApiError, badRequest, forbidden, notFound } from "~/lib/api/errors";
import { freeHandle, handleBase, HANDLE_PATTERN, isReservedHandle } from "./handles.server";
import { shopListJson } from "./shop-lists.server";
import { shopPageUrl } from "./shop-pages.server";

/** Ids are 32-bit integers on PostgreSQL. */
const MAX_ID = 2_147_483_647;
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,58}[a-z0-9])?$/;
export const MAX_LIST_PRODUCTS = 500;

export const handleSchema = z
  .string()
  .regex(HANDLE_PATTERN, "1-60 lower-case letters, digits and inner hyphens")
  .refine((h) => !isReservedHandle(h), "reserved word");

export const shopUpdateSchema = z.object({
  handle: handleSchema.optional(),
  published: z.boolean().optional(),
  description: z.string().max(2000).optional(),
});

const listFields = {
  title: z.string().trim().min(1).max(200),
  description: z.string().max(2000).optional(),
  featured: z.boolean().optional(),
  position: z.number().int().min(0).max(1_000_000).optional(),
  /** The list's products in order; each must be a product of this shop. */
  product_ids: z.array(z.number().int().positive().max(MAX_ID)).max(MAX_LIST_PRODUCTS).optional(),
};

export const listCreateSchema = z.object({ slug: z.string().regex(SLUG, "1-60 lower-case letters, digits and inner hyphens"), ...listFields });
export const listUpdateSchema = z.object({ ...listFields, title: listFields.title.optional() });

export interface Principal {
  partnerId: number | null;
  /** The caller's role in that partner, read for this request (app/api/endpoint.server.ts requirePartner). */
  role: "owner" | "member" | null;
}

function partnerOf(principal: Principal): number {
  if (principal.partnerId === null) throw notFound("no_partner", "This user is not linked to a partner");
  return principal.partnerId;
}

/** Writes need the owner role. */
function requireOwner(principal: Principal): void {
  if (principal.role !== "owner") throw forbidden("forbidden", "Only an owner of the partner may change its shop pages");
}

async function ownShop(principal: Principal, shopId: number, write: boolean) {
  const partnerId = partnerOf(principal);
  const shop = shopId <= MAX_ID ? await db.platformShop.findFirst({ where: { id: shopId, partnerId } }) : null;
  if (!shop) throw notFound("not_found", `No shop ${shopId} of this partner`);
  if (write) requireOwner(principal);
  // Shops from before handles existed get one on first use.
  if (!shop.handle) {
    for (let attempt = 1; ; attempt++) {
      try {
        return await db.platformShop.update({ where: { id: shop.id }, data: { handle: await freeHandle(handleBase(shop)) } });
      } catch (err) {
        if (!isUniqueViolation(err) || attempt >= 5) throw err;
      }
    }
  }
  return shop;
}

type Shop = Awaited<ReturnType<typeof ownShop>>;

function adminShopJson(shop: Shop) {
  return {
    id: shop.id,
    domain: shop.domain,
    name: shop.name,
    handle: shop.handle!,
    published: shop.published,
    description: shop.description,
    url: shopPageUrl(shop.handle!),
    updated_at: shop.updatedAt.toISOString(),
  };
}

export async function partnerShops(principal: Principal) {
  const partnerId = partnerOf(principal);
  const ids = await db.platformShop.findMany({ where: { partnerId }, orderBy: { id: "asc" }, select: { id: true } });
  const shops = [];
  for (const { id } of ids) shops.push(adminShopJson(await ownShop(principal, id, false)));
  return { shops };
}

export async function partnerShop(principal: Principal, shopId: number) {
  return { shop: adminShopJson(await ownShop(principal, shopId, false)) };
}

export async function updatePartnerShop(principal: Principal, shopId: number, input: z.output<typeof shopUpdateSchema>) {
  const shop = await ownShop(principal, shopId, true);
  try {
    const updated = await db.platformShop.update({ where: { id: shop.id }, data: input });
    return { shop: adminShopJson(updated) };
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError(409, "handle_taken", `The handle ${input.handle} is taken`);
    throw err;
  }
}

// ------------------------------------------------------------------ curated lists

const listInclude = { products: { orderBy: [{ position: "asc" as const }, { productId: "asc" as const }], select: { productId: true } } };

function adminListJson(list: Parameters<typeof shopListJson>[0] & { products: { productId: number }[] }) {
  return { ...shopListJson(list, list.products.length), product_ids: list.products.map((p) => p.productId) };
}

/** Product ids of this shop, deduplicated in order; 400 `invalid_product_ids` for any other. */
async function shopProductIds(shopId: number, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  const found = await db.product.findMany({ where: { id: { in: unique }, sourceShopId: shopId }, select: { id: true } });
  if (found.length !== unique.length) {
    const known = new Set(found.map((p) => p.id));
    const bad = unique.filter((id) => !known.has(id));
    throw badRequest("invalid_product_ids", `Not products of this shop: ${bad.slice(0, 10).join(", ")}`);
  }
  return unique;
}

export async function partnerShopLists(principal: Principal, shopId: number) {
  const shop = await ownShop(principal, shopId, false);
  const lists = await db.shopList.findMany({ where: { shopId: shop.id }, orderBy: [{ position: "asc" }, { id: "asc" }], include: listInclude });
  return { lists: lists.map(adminListJson) };
}

export async function createShopList(principal: Principal, shopId: number, input: z.output<typeof listCreateSchema>) {
  const shop = await ownShop(principal, shopId, true);
  const productIds = input.product_ids ? await shopProductIds(shop.id, input.product_ids) : [];
  try {
    const list = await db.shopList.create({
      data: {
        shopId: shop.id,
        slug: input.slug,
        title: input.title,
        description: input.description ?? "",
        featured: input.featured ?? false,
        position: input.position ?? 0,
        products: { create: productIds.map((productId, position) => ({ productId, position })) },
      },
      include: listInclude,
    });
    return { list: adminListJson(list) };
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError(409, "list_exists", `This shop already has a list ${input.slug}`);
    throw err;
  }
}

async function ownList(shopId: number, slug: string | undefined) {
  const list = slug ? await db.shopList.findUnique({ where: { shopId_slug: { shopId, slug } } }) : null;
  if (!list) throw notFound("not_found", `This shop has no list ${JSON.stringify(slug ?? "")}`);
  return list;
}

/** Changes the given fields; `product_ids`, when given, replaces the list's products in that order. */
export async function updateShopList(principal: Principal, shopId: number, slug: string | undefined, input: z.output<typeof listUpdateSchema>) {
  const shop = await ownShop(principal, shopId, true);
  const list = await ownList(shop.id, slug);
  const productIds = input.product_ids ? await shopProductIds(shop.id, input.product_ids) : null;
  const { product_ids: _ids, ...fields } = input;
  const updated = await db.$transaction(async (tx) => {
    if (productIds) {
      await tx.shopListProduct.deleteMany({ where: { shopListId: list.id } });
      if (productIds.length) {
        await tx.shopListProduct.createMany({ data: productIds.map((productId, position) => ({ shopListId: list.id, productId, position })) });
      }
    }
    return tx.shopList.update({ where: { id: list.id }, data: { ...fields, updatedAt: new Date() }, include: listInclude });
  });
  return { list: adminListJson(updated) };
}

export async function deleteShopList(principal: Principal, shopId: number, slug: string | undefined) {
  const shop = await ownShop(principal, shopId, true);
  const list = await ownList(shop.id, slug);
  await db.shopList.delete({ where: { id: list.id } });
  return { ok: true as const };
}
