// The admin preview (docs/shopify.md "Preview the admin locally"): the
// embedded admin in a plain browser for the demo shop of a local
// installation. Its one credential is a cookie that GET /app/preview mints:
// an HMAC (key `admin_preview_key`, AppSecret) over its expiry, a nonce and
// APP_URL. It names no shop: whoever holds it sees the preview shop, whose
// domain no Shopify shop can have, and nothing else. It is read and minted
// only while adminPreviewEnabled(env) holds (APP_URL on localhost, HOST a
// loopback address; the boot refuses ADMIN_PREVIEW=true elsewhere) and only
// on requests addressed to a local host name, so a deployment never honours
// one, whoever made it.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { db } from "~/db.server";
import { adminPreviewEnabled, env } from "~/env.server";
import { ApiError } from "~/lib/api/errors";
import { getAdminPreviewKey } from "~/domains/secrets/secrets.server";
import { isLocalHost } from "~/domains/widget/origin";
import { PREVIEW_SHOP_DOMAIN, PREVIEW_STOREFRONT_HOST, previewShop } from "~/domains/demo/preview-shop.server";
import type { AdminGraphql } from "~/domains/shops/admin-graphql.server";
import { ADMIN_TEXTS, adminLang } from "~/i18n/admin";
import type { AdminContext } from "./admin-context.server";

export const PREVIEW_COOKIE = "wish_admin_preview";
/** A working day; then GET /app/preview again. */
export const PREVIEW_TTL_SECONDS = 8 * 60 * 60;

/** The preview is on, and this request was addressed to this machine by name (no DNS-rebound foreign host name). */
export function previewAvailable(request: Request): boolean {
  return adminPreviewEnabled(env) && isLocalHost(new URL(request.url).hostname);
}

async function mac(expires: number, nonce: string): Promise<string> {
  return createHmac("sha256", await getAdminPreviewKey())
    .update(`admin-preview.v1.${env.APP_URL}.${expires}.${nonce}`)
    .digest("base64url");
}

/** A Set-Cookie header value with a fresh preview credential. */
export async function mintPreviewCookie(now = Date.now()): Promise<string> {
  const expires = Math.floor(now / 1000) + PREVIEW_TTL_SECONDS;
  const nonce = randomBytes(12).toString("base64url");
  const value = `v1.${expires}.${nonce}.${await mac(expires, nonce)}`;
  return `${PREVIEW_COOKIE}=${value}; Path=/app; Max-Age=${PREVIEW_TTL_SECONDS}; HttpOnly; SameSite=Strict`;
}

function cookieValue(request: Request): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === PREVIEW_COOKIE) return rest.join("=");
  }
  return null;
}

/** Whether the request carries a valid, unexpired preview credential (and the preview is available to it at all). */
export async function hasPreviewSession(request: Request, now = Date.now()): Promise<boolean> {
  if (!previewAvailable(request)) return false;
  const value = cookieValue(request);
  const [version, expiresText, nonce, given] = value?.split(".") ?? [];
  if (version !== "v1" || !expiresText || !nonce || !given || !/^\d{1,12}$/.test(expiresText)) return false;
  const expires = Number(expiresText);
  if (expires * 1000 <= now) return false;
  const expected = Buffer.from(await mac(expires, nonce));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** What anything that would change Shopify answers in the preview. */
export function previewReadOnly(request: Request): ApiError {
  return new ApiError(403, "preview_read_only", ADMIN_TEXTS[adminLang(request)].preview.readOnly);
}

/**
 * The preview's stand-in for the Admin API: the shop query is answered from
 * our own row; every mutation, and any other query, is refused without a
 * network call (there is no Shopify store behind the preview).
 */
function previewGraphql(request: Request, shop: { name: string | null; currency: string | null }): AdminGraphql {
  return async (query) => {
    if (/\bmutation\b/.test(query) || !query.includes("WishlistShop")) throw previewReadOnly(request);
    const data = {
      shop: {
        id: "gid://shopify/Shop/0",
        name: shop.name ?? "Demo shop",
        email: null,
        myshopifyDomain: PREVIEW_SHOP_DOMAIN,
        primaryDomain: { url: `https://${PREVIEW_STOREFRONT_HOST}`, host: PREVIEW_STOREFRONT_HOST },
        currencyCode: shop.currency ?? "EUR",
        ianaTimezone: "UTC",
        badge: null,
      },
    };
    return { json: async () => ({ data }) };
  };
}

/** The admin context of the preview: the demo shop, a local Admin API stand-in, billing that only says "preview". */
export async function previewContext(request: Request): Promise<AdminContext> {
  await previewShop();
  const shop = await db.platformShop.findUniqueOrThrow({ where: { domain: PREVIEW_SHOP_DOMAIN }, include: { partner: true } });
  const refuse = async () => {
    throw previewReadOnly(request);
  };
  const context = {
    admin: { graphql: previewGraphql(request, shop) },
    billing: { request: refuse, check: refuse, require: refuse, cancel: refuse },
    session: { id: "admin-preview", shop: PREVIEW_SHOP_DOMAIN, isOnline: false, state: "", scope: "" },
    shop,
    partnerId: shop.partnerId,
    preview: true,
  };
  // The library's types describe a real Shopify session; the preview has none, and its callers use only the parts above.
  return context as unknown as AdminContext;
}
