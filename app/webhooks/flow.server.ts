// Shopify Flow's requests to the app (docs/shopify.md "Shopify Flow"):
// - the trigger lifecycle callback, signed as Shopify documents it: the
//   base64 HMAC-SHA256 of the raw body with the app's client secret in
//   X-Shopify-Hmac-Sha256 (shopify.dev/docs/apps/build/flow/track-lifecycle-events);
// - action requests, verified by the library's authenticate.flow (the same
//   HMAC), which also finds the shop's offline session for its Admin API.
// Wrong or missing signature → 401, anything but POST → 405, SPEC error bodies throughout.
import { createHmac, timingSafeEqual } from "node:crypto";
import { json } from "@remix-run/node";
import type { AdminGraphql } from "~/domains/shops/admin-graphql.server";
import { errorResponse } from "~/http/error-reply.server";
import { ApiError, badRequest, notFound, unauthorized } from "~/lib/api/errors";
import { env } from "~/env.server";
import { shopify } from "~/shopify.server";

const MYSHOPIFY_DOMAIN = /^[a-z0-9][a-z0-9-]{0,62}\.myshopify\.com$/;

const notPost = () => new ApiError(405, "method_not_allowed", "Shopify Flow sends POST", {}, { Allow: "POST" });
const badSignature = () => unauthorized("The request's HMAC signature does not match");

/** Whether `rawBody` carries Shopify's signature for this app. */
function signedByShopify(rawBody: string, header: string | null): boolean {
  if (!header || !env.SHOPIFY_API_SECRET) return false;
  const expected = createHmac("sha256", env.SHOPIFY_API_SECRET).update(rawBody, "utf8").digest();
  const given = Buffer.from(header, "base64");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function jsonOf(rawBody: string): unknown {
  try {
    return JSON.parse(rawBody);
  } catch {
    throw new ApiError(400, "invalid_payload", "The body is not JSON");
  }
}

/** A lifecycle callback: the signed JSON body, verified, for `handle`; its answer. */
export async function receiveLifecycleCallback(request: Request, handle: (body: unknown) => Promise<unknown>): Promise<Response> {
  try {
    if (!shopify) throw notFound("not_found", "The Shopify app is not configured on this server");
    if (request.method !== "POST") throw notPost();
    const rawBody = await request.text();
    if (!signedByShopify(rawBody, request.headers.get("x-shopify-hmac-sha256"))) throw badSignature();
    return json(await handle(jsonOf(rawBody)));
  } catch (err) {
    return errorResponse(err, request);
  }
}

export interface FlowAction {
  shopDomain: string;
  payload: Record<string, unknown>;
  graphql: AdminGraphql;
}

/** An action request, verified by authenticate.flow, for `run`; 200 with its answer (Flow reads 200 as done). */
export async function receiveFlowAction(request: Request, run: (action: FlowAction) => Promise<unknown>): Promise<Response> {
  try {
    if (!shopify) throw notFound("not_found", "The Shopify app is not configured on this server");
    if (request.method !== "POST") throw notPost();
    const rawBody = await request.clone().text();
    if (!signedByShopify(rawBody, request.headers.get("x-shopify-hmac-sha256"))) throw badSignature();
    // The library reads `shopify_domain` of whatever JSON it gets (null, an array, a number…) and throws
    // TypeErrors on what Flow never sends: only an object naming a myshopify domain goes on.
    const body = jsonOf(rawBody);
    const domain = body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>).shopify_domain : undefined;
    if (typeof domain !== "string" || !MYSHOPIFY_DOMAIN.test(domain)) {
      throw badRequest("invalid_payload", "An action request is a JSON object naming the shop's myshopify domain in shopify_domain");
    }
    let verified;
    try {
      verified = await shopify.authenticate.flow(request);
    } catch (err) {
      if (!(err instanceof Response)) throw err;
      // The signature was checked above: the library's 400 here means a shop without an offline session.
      throw notFound("unknown_shop", "The shop has not installed the app");
    }
    const payload = (verified.payload ?? {}) as Record<string, unknown>;
    return json(await run({ shopDomain: verified.session.shop, payload, graphql: verified.admin.graphql as AdminGraphql }));
  } catch (err) {
    if (err instanceof SyntaxError) return errorResponse(new ApiError(400, "invalid_payload", "The body is not JSON"), request);
    return errorResponse(err, request);
  }
}
