// The Shopify side of the app tests, without Shopify's servers (GUIDE 9):
// the real app configuration pointed at a fresh database, requests signed
// with the library's test helpers (session-token JWTs, webhook HMACs), and a
// fake Admin API behind the library's fetch hook that answers token exchange
// and the GraphQL the app sends, recording every call.
import { setAbstractFetchFunc } from "@shopify/shopify-api/runtime";
import { getHmac, RequestType, setUpValidRequest } from "@shopify/shopify-api/test-helpers";
import { createServer } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { freshDatabaseUrl } from "./database.ts";
import { freePort } from "./net.ts";
import { sql } from "./sql.ts";
import { until } from "./wait.ts";

export const API_KEY = "test-api-key-install";
export const API_SECRET = "test-api-secret-install";
export const APP_URL = "https://wish.example";

export interface FakeShop {
  domain: string;
  name: string;
  email: string;
  primaryHost: string;
  gid: string;
  metafields: Map<string, { type: string; value: string }>;
  /** App-owned ($app) customer metafields by customer GID, then key. */
  customerMetafields: Map<string, Map<string, { type: string; value: string }>>;
  activeSubscriptions: Array<{ id: string; name: string; status: string; test: boolean; trialDays: number; currentPeriodEnd: string | null }>;
  /** appSubscriptionCreate requests, with their variables. */
  subscriptionRequests: Array<Record<string, unknown>>;
  /** appSubscriptionCancel requests, with their variables (id, prorate). */
  cancelRequests: Array<Record<string, unknown>>;
  /** When set, appSubscriptionCancel answers with this userError and cancels nothing. */
  refuseCancel: string | null;
  /** The shop's products the Admin API's `product(id:)` query knows, by numeric id. */
  products: Map<string, { handle: string; title: string; price: string; currency: string }>;
  /** flowTriggerReceive calls Shopify accepted: the handle and payload of each. */
  flowTriggers: Array<{ handle: string; payload: Record<string, unknown> }>;
  /** The next this many flowTriggerReceive calls are throttled (the Admin API's THROTTLED error). */
  throttleFlowTriggers: number;
  /** The shop's customers the Admin API's `customer(id:)` query knows, by numeric id. */
  customers: Map<string, { email: string | null }>;
}

export interface GraphqlCall {
  shop: string;
  query: string;
  variables: Record<string, unknown> | undefined;
}

export class FakeAdminApi {
  shops = new Map<string, FakeShop>();
  calls: GraphqlCall[] = [];
  tokenExchanges = 0;
  private next = 1;

  addShop(domain: string, opts: { primaryHost?: string; name?: string } = {}): FakeShop {
    const shop: FakeShop = {
      domain,
      name: opts.name ?? `Shop ${domain.split(".")[0]}`,
      email: `owner@${domain}`,
      primaryHost: opts.primaryHost ?? `www.${domain.split(".")[0]}.example`,
      gid: `gid://shopify/Shop/${this.next++}`,
      metafields: new Map(),
      customerMetafields: new Map(),
      activeSubscriptions: [],
      subscriptionRequests: [],
      cancelRequests: [],
      refuseCancel: null,
      products: new Map(),
      flowTriggers: [],
      throttleFlowTriggers: 0,
      customers: new Map(),
    };
    this.shops.set(domain, shop);
    return shop;
  }

  callsTo(domain: string, match: string): GraphqlCall[] {
    return this.calls.filter((c) => c.shop === domain && c.query.includes(match));
  }

  async handle(url: string, init: { method?: string; body?: unknown }): Promise<Response> {
    const { hostname, pathname } = new URL(url);
    const shop = this.shops.get(hostname);
    if (!shop) return new Response("unknown shop", { status: 404 });
    const body = typeof init.body === "string" ? JSON.parse(init.body) : {};
    const json = (data: unknown) => new Response(JSON.stringify(data), { status: 200, headers: { "content-type": "application/json" } });
    if (pathname === "/admin/oauth/access_token") {
      this.tokenExchanges++;
      return json({
        access_token: `shpat_${hostname}_${this.tokenExchanges}`,
        scope: "read_products,write_metafields",
        expires_in: 3600,
        refresh_token: `shprt_${this.tokenExchanges}`,
        refresh_token_expires_in: 86_400,
      });
    }
    if (!/^\/admin\/api\/[\d-]+\/graphql\.json$/.test(pathname)) return new Response("not faked", { status: 404 });
    const query = String(body.query ?? "");
    const variables = body.variables as Record<string, unknown> | undefined;
    this.calls.push({ shop: hostname, query, variables });
    if (query.includes("WishlistShop")) {
      const badge = shop.metafields.get("badge");
      return json({
        data: {
          shop: {
            id: shop.gid,
            name: shop.name,
            email: shop.email,
            myshopifyDomain: shop.domain,
            primaryDomain: { url: `https://${shop.primaryHost}`, host: shop.primaryHost },
            currencyCode: "USD",
            ianaTimezone: "Europe/Berlin",
            badge: badge ? { value: badge.value } : null,
          },
        },
      });
    }
    if (query.includes("metafieldsSet")) {
      const metafields = (variables?.metafields ?? []) as Array<{ ownerId: string; namespace: string; key: string; type: string; value: string }>;
      // A customer's metafields in the app-owned namespace (the mirror), or the shop's in $app:wishlist.
      const customers = metafields.filter((m) => /^gid:\/\/shopify\/Customer\/\d+$/.test(m.ownerId) && m.namespace === "$app");
      if (customers.length === metafields.length && customers.length > 0) {
        for (const m of customers) {
          if (!shop.customerMetafields.has(m.ownerId)) shop.customerMetafields.set(m.ownerId, new Map());
          shop.customerMetafields.get(m.ownerId)!.set(m.key, { type: m.type, value: m.value });
        }
        return json({ data: { metafieldsSet: { metafields: customers.map((m) => ({ key: m.key, value: m.value })), userErrors: [] } } });
      }
      const bad = metafields.find((m) => m.ownerId !== shop.gid || m.namespace !== "$app:wishlist");
      if (bad) return json({ data: { metafieldsSet: { metafields: [], userErrors: [{ field: ["ownerId"], message: "wrong owner or namespace", code: "INVALID" }] } } });
      for (const m of metafields) shop.metafields.set(m.key, { type: m.type, value: m.value });
      return json({ data: { metafieldsSet: { metafields: metafields.map((m) => ({ key: m.key, value: m.value })), userErrors: [] } } });
    }
    if (query.includes("flowTriggerReceive")) {
      if (shop.throttleFlowTriggers > 0) {
        shop.throttleFlowTriggers--;
        return json({ errors: [{ message: "Throttled", extensions: { code: "THROTTLED" } }] });
      }
      shop.flowTriggers.push({ handle: String(variables?.handle), payload: (variables?.payload ?? {}) as Record<string, unknown> });
      return json({ data: { flowTriggerReceive: { userErrors: [] } } });
    }
    if (query.includes("customer(id:")) {
      const id = /^gid:\/\/shopify\/Customer\/(\d+)$/.exec(String(variables?.id))?.[1];
      const c = id ? shop.customers.get(id) : undefined;
      return json({ data: { customer: c ? { email: c.email } : null } });
    }
    if (query.includes("product(id:")) {
      const id = /^gid:\/\/shopify\/Product\/(\d+)$/.exec(String(variables?.id))?.[1];
      const p = id ? shop.products.get(id) : undefined;
      return json({
        data: {
          product: p
            ? { handle: p.handle, title: p.title, featuredImage: null, priceRangeV2: { minVariantPrice: { amount: p.price, currencyCode: p.currency } } }
            : null,
        },
      });
    }
    if (query.includes("currentAppInstallation")) {
      const field = (key: string) => (shop.metafields.has(key) ? { value: shop.metafields.get(key)!.value } : null);
      return json({
        data: {
          currentAppInstallation: { id: "gid://shopify/AppInstallation/1", activeSubscriptions: shop.activeSubscriptions },
          shop: { id: shop.gid, appUrl: field("app_url"), anonKey: field("anon_key") },
        },
      });
    }
    if (query.includes("appSubscriptionCreate")) {
      shop.subscriptionRequests.push(variables ?? {});
      const id = `gid://shopify/AppSubscription/${this.next++}`;
      return json({
        data: {
          appSubscriptionCreate: {
            appSubscription: { id, name: variables?.name, test: variables?.test, lineItems: [] },
            confirmationUrl: `https://${shop.domain}/admin/charges/confirm?id=${encodeURIComponent(id)}`,
            userErrors: [],
          },
        },
      });
    }
    if (query.includes("appSubscriptionCancel")) {
      // As Shopify: the subscription leaves activeSubscriptions and comes back CANCELLED; an id the shop
      // has no active subscription under is a userError on `id`, with nothing cancelled.
      shop.cancelRequests.push(variables ?? {});
      const sub = shop.activeSubscriptions.find((s) => s.id === variables?.id);
      const refusal = shop.refuseCancel ?? (sub ? null : "The subscription was not found or is not active");
      if (refusal) return json({ data: { appSubscriptionCancel: { appSubscription: null, userErrors: [{ field: ["id"], message: refusal }] } } });
      shop.activeSubscriptions = shop.activeSubscriptions.filter((s) => s !== sub);
      return json({ data: { appSubscriptionCancel: { appSubscription: { id: sub!.id, name: sub!.name, status: "CANCELLED" }, userErrors: [] } } });
    }
    return json({ errors: [{ message: `fake admin api: unexpected query ${query.slice(0, 80)}` }] });
  }
}

/**
 * Points this test worker's app modules at a fresh database (or a test
 * server's, `databaseUrl`) with Shopify configured, and installs the fake
 * Admin API. Call once per test file, before importing any app module.
 */
export async function shopifyTestApp(existingDatabaseUrl?: string) {
  const databaseUrl = existingDatabaseUrl ?? (await freshDatabaseUrl());
  Object.assign(process.env, {
    DATABASE_URL: databaseUrl,
    APP_URL,
    SHOPIFY_API_KEY: API_KEY,
    SHOPIFY_API_SECRET: API_SECRET,
    SHOPIFY_BILLING_TEST: "true",
    LOG_LEVEL: "error",
  });
  const { shopify } = await import("~/shopify.server");
  if (!shopify) throw new Error("Shopify did not switch on");
  // After shopify.server: its node adapter installs the real fetch at import.
  const api = new FakeAdminApi();
  setAbstractFetchFunc(async (input, init) => api.handle(String(input), (init ?? {}) as { body?: unknown }));
  return { api, databaseUrl, shopify };
}

/** A request from the embedded admin (App Bridge fetch with a session token) for `shop`. */
export async function adminRequest(shop: string, path: string, init: { method?: string; form?: Record<string, string> } = {}) {
  const url = new URL(path, APP_URL);
  url.searchParams.set("shop", shop);
  const request = new Request(url, {
    method: init.method ?? "GET",
    ...(init.form ? { body: new URLSearchParams(init.form), headers: { "content-type": "application/x-www-form-urlencoded" } } : {}),
  });
  return setUpValidRequest({ type: RequestType.Bearer, store: shop.replace(".myshopify.com", ""), apiKey: API_KEY, apiSecretKey: API_SECRET }, request);
}

/**
 * A webhook delivery as Shopify sends it, to `appUrl`/webhooks/`path` (the topic's own address unless
 * given); `secret` other than the app's makes a bad HMAC.
 */
export function webhookRequest(
  topic: string,
  shop: string,
  payload: unknown,
  opts: { webhookId?: string; secret?: string; appUrl?: string; path?: string } = {},
) {
  const body = JSON.stringify(payload);
  return new Request(`${opts.appUrl ?? APP_URL}/webhooks/${opts.path ?? topic}`, {
    method: "POST",
    body,
    headers: {
      "content-type": "application/json",
      "x-shopify-topic": topic,
      "x-shopify-shop-domain": shop,
      "x-shopify-hmac-sha256": getHmac(body, opts.secret ?? API_SECRET),
      "x-shopify-webhook-id": opts.webhookId ?? `wh_${Math.random().toString(36).slice(2)}`,
      "x-shopify-api-version": "2026-01",
      "x-shopify-event-id": `ev_${Math.random().toString(36).slice(2)}`,
      "x-shopify-triggered-at": new Date().toISOString(),
    },
  });
}

/**
 * Waits until the server has run the work of every queued webhook delivery
 * (products, inventory, orders, refunds are answered first and processed
 * after, by the outbox: docs/shopify.md "Shopify webhooks").
 */
export async function queuedWebhooksDone(databaseUrl: string): Promise<void> {
  await until(
    "queued webhook deliveries processed",
    () => sql<{ n: number | string }>(databaseUrl, `SELECT COUNT(*) AS n FROM "OutboxMessage" WHERE "kind" = 'platform-webhook' AND "status" = 'pending'`),
    (rows) => Number(rows[0]!.n) === 0,
  );
}

/** Runs a loader or action and returns what it returned or threw (Remix routes throw Responses). */
export async function settle<T>(run: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; thrown: unknown }> {
  try {
    return { ok: true, value: await run() };
  } catch (thrown) {
    return { ok: false, thrown };
  }
}

/**
 * The fake Admin API for a built server process (startServer): an HTTP
 * server in this process answering what `api` answers, and the environment
 * that makes the server send its Admin API calls there
 * (fake-admin-preload.mjs). Pass `env` to startServer.
 */
export async function fakeAdminForServer(api: FakeAdminApi) {
  const port = await freePort();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const shop = String(req.headers["x-fake-shop"] ?? "");
      const answer = await api.handle(`https://${shop}${req.url ?? "/"}`, { method: req.method, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "text/plain" }).end(await answer.text());
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const preload = pathToFileURL(path.join(import.meta.dirname, "fake-admin-preload.mjs")).href;
  return {
    env: { FAKE_SHOPIFY_ADMIN: `http://127.0.0.1:${port}`, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import ${preload}`.trim() },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
