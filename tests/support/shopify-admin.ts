// The embedded admin in-process: the app's own `shopify` instance (configured
// from test credentials), requests signed with Shopify's test helpers, an
// offline session in the real session storage, and a fake Admin API (GUIDE
// section 9) that answers the shop, metafield and subscription GraphQL calls
// and records them. Call `adminHarness` before any other app import.
import { setAbstractFetchFunc } from "@shopify/shopify-api/runtime";
import { RequestType, setUpValidRequest } from "@shopify/shopify-api/test-helpers";

export const API_KEY = "test-admin-api-key";
export const API_SECRET = "test-admin-api-secret";

export interface GraphqlCall {
  shop: string;
  query: string;
  variables: Record<string, unknown> | undefined;
}

export async function adminHarness(server: { databaseUrl: string; url: string }, extraEnv: Record<string, string> = {}) {
  Object.assign(process.env, {
    DATABASE_URL: server.databaseUrl,
    APP_URL: server.url,
    SHOPIFY_API_KEY: API_KEY,
    SHOPIFY_API_SECRET: API_SECRET,
    ...extraEnv,
  });
  const { shopify } = await import("~/shopify.server");
  if (!shopify) throw new Error("the Shopify app did not switch on");
  const { Session } = await import("@shopify/shopify-api");
  const { env } = await import("~/env.server");
  const calls: GraphqlCall[] = [];
  /** Active subscriptions per shop domain, as `currentAppInstallation` reports them. */
  const subscriptions = new Map<string, unknown[]>();

  setAbstractFetchFunc(async (input, init) => {
    const url = new URL(typeof input === "string" ? input : (input as Request).url);
    const body = JSON.parse(String(init?.body ?? "{}"));
    const shop = url.hostname;
    calls.push({ shop, query: body.query, variables: body.variables });
    const name = shop.replace(".myshopify.com", "");
    let data: unknown;
    if (/currentAppInstallation/.test(body.query)) {
      data = { currentAppInstallation: { id: `gid://shopify/AppInstallation/${name}`, activeSubscriptions: subscriptions.get(shop) ?? [] } };
    } else if (/metafieldsSet/.test(body.query)) {
      data = { metafieldsSet: { metafields: [], userErrors: [] } };
    } else if (/\bshop\s*\{/.test(body.query)) {
      data = {
        shop: {
          id: `gid://shopify/Shop/${name}`,
          name: `Shop ${name}`,
          email: `owner@${name}.example`,
          myshopifyDomain: shop,
          primaryDomain: { url: `https://${name}.example`, host: `${name}.example` },
          currencyCode: "EUR",
          ianaTimezone: "Europe/Berlin",
          badge: null,
        },
      };
    } else {
      return new Response(JSON.stringify({ errors: [{ message: `fake Admin API: no answer for ${body.query}` }] }), { status: 200 });
    }
    return new Response(JSON.stringify({ data }), { status: 200, headers: { "content-type": "application/json" } });
  });

  /** A shop that has installed the app: an offline session in storage. */
  async function installed(name: string) {
    const shop = `${name}.myshopify.com`;
    await shopify!.sessionStorage.storeSession(
      new Session({ id: `offline_${shop}`, shop, state: "installed", isOnline: false, accessToken: `shpat_${name}`, scope: env.SCOPES }),
    );
    return shop;
  }

  /** A request from the embedded admin of `shop` (a session-token bearer, as App Bridge's fetch sends). */
  async function request(shop: string, path: string, form?: Record<string, string>) {
    const init: RequestInit = form ? { method: "POST", body: new URLSearchParams(form) } : {};
    return setUpValidRequest(
      { type: RequestType.Bearer, store: shop.replace(".myshopify.com", ""), apiKey: API_KEY, apiSecretKey: API_SECRET },
      new Request(`${server.url}${path}`, init),
    );
  }

  /** The shop bought `plan` (a billing plan name such as "Growth"): Shopify now reports it as active. */
  const subscribe = (shop: string, plan: string) =>
    void subscriptions.set(shop, [
      { id: `gid://shopify/AppSubscription/${plan}-${shop}`, name: plan, status: "ACTIVE", test: true, trialDays: 14, currentPeriodEnd: null },
    ]);

  return { shopify, calls, installed, request, subscribe };
}
