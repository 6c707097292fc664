// The door every `/proxy/*` route goes through: Shopify's app proxy forwards
// `https://<shop>/apps/wishlist/…` here with a signed query string
// (docs/shopify.md "App proxy"). A request is served only when
//   1. its `timestamp` is within PROXY_MAX_AGE_SECONDS of now (a captured
//      request cannot be replayed later; the library checks the same window),
//   2. the library's `authenticate.public.appProxy` accepts its `signature`,
//   3. its `shop` is a store that installed the app (else 404).
// Anything else is refused with the SPEC error body before any route reads
// the query, so a refused request changes nothing. Bodies are JSON only (415
// otherwise: a form post from another site cannot reach a write) and small
// (413). The storefront's `logged_in_customer_id` is trusted only after 2.
import { InvalidShopError } from "@shopify/shopify-api";
import type { PlatformShop } from "~/db.server";
import { findPlatformShop } from "~/domains/shops/platform-webhooks.server";
import { isCustomerId } from "~/domains/shop-customers/shop-customers.server";
import { langOf, type Lang } from "~/i18n/lang";
import { errorResponse } from "~/http/error-reply.server";
import { ApiError, badRequest, notFound, unauthorized } from "~/lib/api/errors";
import { shopify } from "~/shopify.server";

/**
 * How far a proxy request's `timestamp` may be from now, either way. The
 * library (@shopify/shopify-api 15, `validateHmacTimestamp`) refuses outside
 * 90 seconds too; checking it here keeps the window if the library changes.
 */
export const PROXY_MAX_AGE_SECONDS = 90;
/** The largest body a proxy route reads: its requests carry an id or two. */
export const PROXY_MAX_BODY_BYTES = 4096;

const MYSHOPIFY_DOMAIN = /^[a-z0-9][a-z0-9-]{0,62}\.myshopify\.com$/;
/** Parameters Shopify adds to every proxied request that the app reads: each once, or the request is not as Shopify sent it (a repeated `timestamp` or `signature` fails the checks above). */
const SHOPIFY_PARAMS = ["shop", "logged_in_customer_id", "path_prefix"] as const;

export interface ProxyRequest {
  shop: Pick<PlatformShop, "id" | "partnerId" | "domain" | "primaryDomain">;
  /** The signed-in customer Shopify names, or null for a guest. */
  customerId: string | null;
  lang: Lang;
  /** The library's Liquid response helper (Content-Type: application/liquid). */
  liquid: (body: string, init?: number | (ResponseInit & { layout?: boolean })) => Response;
}

const refused = () => unauthorized("The request does not carry a valid, fresh app proxy signature");

function fresh(url: URL): boolean {
  const raw = url.searchParams.getAll("timestamp");
  if (raw.length !== 1 || !/^\d{1,12}$/.test(raw[0]!)) return false;
  return Math.abs(Date.now() / 1000 - Number(raw[0])) <= PROXY_MAX_AGE_SECONDS;
}

/** The page's language: `?locale=` (the page's own links), else the browser's first language Shopify forwards. */
const proxyLang = (request: Request, url: URL): Lang => langOf(url.searchParams.get("locale") ?? request.headers.get("accept-language") ?? "");

/** Checks a proxied request (see the top of this file); throws the SPEC error otherwise. */
export async function verifyProxyRequest(request: Request): Promise<ProxyRequest> {
  if (!shopify) throw notFound("not_found", "The Shopify app is not configured on this server");
  const url = new URL(request.url);
  if (!fresh(url)) throw refused();
  let liquid: ProxyRequest["liquid"];
  try {
    ({ liquid } = await shopify.authenticate.public.appProxy(request));
  } catch (err) {
    // The library answers a bad or missing signature with an empty 400.
    if (err instanceof Response) throw refused();
    // A signed `shop` that is no shop's domain (blank, say): the library throws while looking up its session.
    if (err instanceof InvalidShopError) throw notFound("shop_not_found", "This store has not installed the app");
    throw err;
  }
  // Shopify signs a repeated key's values joined by commas, so a storefront URL that adds its own
  // `logged_in_customer_id` or `shop` before Shopify's is still signed: a second value is never Shopify's alone.
  for (const key of SHOPIFY_PARAMS) {
    if (url.searchParams.getAll(key).length > 1) throw badRequest("repeated_parameter", `${key} appears more than once`);
  }
  const domain = (url.searchParams.get("shop") ?? "").toLowerCase();
  const shop = MYSHOPIFY_DOMAIN.test(domain)
    ? await findPlatformShop(domain)
    : null;
  if (!shop || !shop.active) throw notFound("shop_not_found", "This store has not installed the app");
  // Blank for a guest (shopify.dev/changelog/app-proxy-requests-include-new-parameter-for-the-logged-in-customer-id).
  const customer = url.searchParams.get("logged_in_customer_id") ?? "";
  if (customer !== "" && !isCustomerId(customer)) throw badRequest("invalid_customer", "logged_in_customer_id is not a customer id");
  return { shop, customerId: customer || null, lang: proxyLang(request, url), liquid };
}

/** The JSON object body of a proxied write: JSON only (415), at most PROXY_MAX_BODY_BYTES (413). */
export async function proxyJsonBody(request: Request): Promise<Record<string, unknown>> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    throw new ApiError(415, "unsupported_media_type", "Send the body as application/json");
  }
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > PROXY_MAX_BODY_BYTES) throw tooLarge();
  const text = await request.text();
  if (Buffer.byteLength(text) > PROXY_MAX_BODY_BYTES) throw tooLarge();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    throw badRequest("invalid_json", "The body is not valid JSON");
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) throw badRequest("invalid_input", "The body must be a JSON object");
  return body as Record<string, unknown>;
}

const tooLarge = () => new ApiError(413, "payload_too_large", `Request body exceeds ${PROXY_MAX_BODY_BYTES} bytes`);

const methodNotAllowed = (allow: string) =>
  new ApiError(405, "method_not_allowed", `This address answers ${allow}`, {}, { Allow: allow });

/**
 * A proxy route's answer: `method` only (405 otherwise), the request checked
 * before `handle` runs, and every failure as the SPEC error body.
 */
export async function answerProxy(
  request: Request,
  method: "GET" | "POST",
  handle: (proxy: ProxyRequest) => Promise<Response | Record<string, unknown>>,
): Promise<Response> {
  try {
    if (request.method !== method && !(method === "GET" && request.method === "HEAD")) throw methodNotAllowed(method);
    const proxy = await verifyProxyRequest(request);
    const answer = await handle(proxy);
    return answer instanceof Response ? answer : Response.json(answer, { headers: { "Cache-Control": "no-store" } });
  } catch (err) {
    const response = errorResponse(err, request);
    response.headers.set("Cache-Control", "no-store");
    return response;
  }
}

/** The signed-in customer, for the routes that act on their lists (401 for a guest). */
export function requireCustomer(proxy: ProxyRequest): string {
  if (!proxy.customerId) throw unauthorized("Sign in to the store to change your wishlist");
  return proxy.customerId;
}
