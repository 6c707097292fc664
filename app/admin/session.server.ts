// The embedded admin's one door: every /app loader and action calls
// requireAdmin(request), and this is the only module that calls
// shopify.authenticate.admin. The result is memoised per Request, so the
// layout (app.tsx) and the child route's loader share one authentication,
// one shop lookup and one subscription check. On a local installation a
// request with the preview cookie gets the demo shop's context instead
// (preview.server.ts); nothing else ever does.
import { InvalidHostError, InvalidShopError, ShopifyError } from "@shopify/shopify-api";
import { errorResponse } from "~/http/error-reply.server";
import { badRequest } from "~/lib/api/errors";
import { BILLING_IS_TEST, shopify } from "~/shopify.server";
import { provisionShop, refreshScriptMetafields } from "~/domains/shops/provisioning.server";
import { fetchActiveSubscriptions, syncSubscription } from "~/domains/shops/subscription.server";
import { shopifyOffResponse } from "./shopify-off";
import { hasPreviewSession, previewContext } from "./preview.server";
import { findAdminShop as findShop, type AdminAuth, type AdminContext } from "./admin-context.server";

export type { AdminContext };

/** shopifyApp's exit-iframe page under authPathPrefix "/auth" (app/shopify.server.ts). */
const EXIT_IFRAME_PATH = "/auth/exit-iframe";

const authentications = new WeakMap<Request, Promise<AdminAuth>>();
const contexts = new WeakMap<Request, Promise<AdminContext>>();


/**
 * The library throws plain errors (a 500) for requests it refuses to act on:
 * an exit-iframe destination it does not trust (`/auth/exit-iframe?exitIframe=`
 * anywhere but the app, the Shopify admin or a shop's /admin), or a `shop` or
 * `host` parameter that is no shop's. Those are the request's fault: 400.
 */
function refuseBadInput(err: unknown, request: Request): never {
  if (err instanceof InvalidShopError || err instanceof InvalidHostError) {
    throw errorResponse(badRequest("invalid_shop", "The shop or host parameter is not a Shopify shop's"), request);
  }
  if (err instanceof ShopifyError && new URL(request.url).pathname === EXIT_IFRAME_PATH) {
    throw errorResponse(badRequest("invalid_destination", "The exit-iframe destination is not the app or the Shopify admin"), request);
  }
  throw err;
}

/**
 * Shopify's authentication alone (token exchange, OAuth and bounce pages):
 * for /auth/*, where no shop data is needed. Throws the library's responses
 * (redirects, 401 with a reauthorize header) and a 503 while Shopify is off.
 */
export function authenticateAdmin(request: Request): Promise<AdminAuth> {
  let auth = authentications.get(request);
  if (!auth) {
    auth = shopify ? shopify.authenticate.admin(request).catch((err) => refuseBadInput(err, request)) : Promise.reject(shopifyOffResponse());
    authentications.set(request, auth);
  }
  return auth;
}

async function load(request: Request): Promise<AdminContext> {
  const { admin, billing, session } = await authenticateAdmin(request);
  let shop = await findShop(session.shop);
  // afterAuth normally provisioned already; this covers a shop whose session
  // outlived its records (installed before provisioning existed, or a failed run).
  if (!shop || !shop.active) {
    await provisionShop({ shopDomain: session.shop, graphql: admin.graphql });
  }
  // Subscription state follows Shopify on every admin load.
  const installation = await fetchActiveSubscriptions(admin.graphql);
  await syncSubscription(session.shop, installation.subscriptions, { acceptTest: BILLING_IS_TEST, graphql: admin.graphql });
  // The extension's scripts read the app's address and the anonymous key from the shop's metafields.
  await refreshScriptMetafields(admin.graphql, installation.shop);
  shop = await findShop(session.shop);
  if (!shop) throw new Error(`shop ${session.shop} missing after provisioning`);
  return { admin, billing, session, shop, partnerId: shop.partnerId, preview: false };
}

/** The authenticated shop's admin context; see the file comment. */
export function requireAdmin(request: Request): Promise<AdminContext> {
  let context = contexts.get(request);
  if (!context) {
    context = hasPreviewSession(request).then((preview) => (preview ? previewContext(request) : load(request)));
    contexts.set(request, context);
  }
  return context;
}
