// Storefront handles (SPEC 4.8 Shops): `/shops/{handle}`. A handle is a slug
// derived from the shop's name (else its domain) when the shop is created by
// an install or the CLI, unique with a numeric suffix on collision; shops
// created before handles existed get one lazily (partner routes).
import { db } from "~/db.server";

/** Lower-case letters, digits and single hyphens inside; 1 to 60 characters. */
export const HANDLE_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,58}[a-z0-9])?$/;
/** Static segments of `/shops/*` a handle must never shadow. */
const RESERVED = new Set(["by-domain", "me", "api", "new", "search", "sitemap"]);

export const isReservedHandle = (handle: string) => RESERVED.has(handle);

/** A slug of free text: ASCII letters and digits, hyphens between words; "shop" when nothing is left. */
export function slugify(text: string, max = 50): string {
  const slug = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, max)
    .replace(/-+$/g, "");
  return slug || "shop";
}

/** The base of a shop's handle: its name, else the first label of its domain. */
export function handleBase(shop: { name?: string | null; domain: string }): string {
  const base = slugify(shop.name?.trim() || shop.domain.replace(/\.myshopify\.com$/, "").split(".")[0] || "shop");
  return isReservedHandle(base) ? `${base}-shop` : base;
}

type HandleReader = { platformShop: { findMany: typeof db.platformShop.findMany } };

/** The first of `base`, `base-2`, `base-3`, … no shop holds (a race is caught by the unique index). */
export async function freeHandle(base: string, client: HandleReader = db, exceptShopId?: number): Promise<string> {
  const taken = new Set(
    (
      await client.platformShop.findMany({
        where: { handle: { startsWith: base }, ...(exceptShopId ? { id: { not: exceptShopId } } : {}) },
        select: { handle: true },
      })
    ).map((s) => s.handle),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
