// What `npm run bench` measures. Adding a hot route = adding one entry to
// SCENARIOS. Every request carries the anon key (`apikey`); a JSON body gets
// `content-type: application/json`.
import { randomBytes } from "node:crypto";
import { sql } from "../support/sql.ts";
import type { BenchApi } from "./harness.ts";

export interface RequestSpec {
  /** Replaces the scenario's path (which then only names it), e.g. with a fixture's id. */
  path?: string;
  headers?: Record<string, string>;
  /** Sent as is when a string, JSON-encoded otherwise. */
  body?: unknown;
}

/**
 * Per-connection chained requests, for state that a request consumes (a
 * refresh token can be exchanged once): every connection starts from its own
 * state and sends one request at a time (pipelining 1).
 */
export interface Chain<S> {
  /** The state connection `index` starts a run with (fixtures through the API). */
  start(api: BenchApi, index: number): Promise<S>;
  /** The request to send from the current state. */
  request(state: S): RequestSpec;
  /** The state after a 2xx response with this body. */
  next(state: S, body: string): S;
}

export interface Scenario {
  /** Short name, used by BENCH_ONLY and in the results. */
  name: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Under {base_url} (APP_URL/api/v1), query string included; under APP_URL itself when `site` is set. */
  path: string;
  /** A page of the site (share pages), not an API route: `path` is under APP_URL. */
  site?: boolean;
  /**
   * Runs before every measured run (so no run inherits state another one
   * consumed) and returns what every request of the run sends. `api` is the
   * app's (fixtures); `target` is the server measured, for what it mints
   * itself (a widget token).
   */
  setup?: (api: BenchApi, target: BenchApi) => Promise<RequestSpec>;
  /**
   * A hot route: after each full-speed run, also driven at a
   * constant half of the rate it reached (p99 target 20 ms), and held to the
   * scale-mode target. Not for chained scenarios.
   */
  hot?: boolean;
  /** Also measured on the reference server (reference-server.ts), which answers this route with the same SQL and JSON. */
  reference?: boolean;
  /** Instead of one fixed request: chained requests per connection (over what setup returned). */
  chain?: Chain<any>;
  /** Also report this route's rate ÷ the named scenario's in the same round (both selected). */
  relativeTo?: string;
}

export const chain = <S>(c: Chain<S>): Chain<S> => c;

/** The framework ceiling: the service status route (no database, no auth). */
export const CEILING: Scenario = { name: "ceiling", method: "GET", path: "/", reference: true, hot: true };

export const SCENARIOS: Scenario[] = [
  { name: "health", method: "GET", path: "/health" },
  {
    name: "auth.refresh",
    method: "POST",
    path: "/auth/token?grant_type=refresh_token",
    chain: chain<{ refreshToken: string }>({
      start: async (api) => ({ refreshToken: (await api.anonymousUser()).refresh_token }),
      request: (s) => ({ body: { refresh_token: s.refreshToken } }),
      next: (_, body) => ({ refreshToken: JSON.parse(body).refresh_token }),
    }),
  },
  {
    name: "auth.user",
    hot: true,
    reference: true,
    method: "GET",
    path: "/auth/user",
    setup: async (api) => ({ headers: { authorization: `Bearer ${(await api.anonymousUser()).access_token}` } }),
  },
  {
    name: "public.items",
    hot: true,
    reference: true,
    method: "GET",
    path: "/hosted/public/lists/{token}/items (50 items)",
    setup: async (api) => ({ path: `/hosted/public/lists/${(await sharedBenchList(api)).token}/items` }),
  },
  {
    // The same list as public.items: the page's rate is reported as a share of that JSON read's.
    name: "share.page",
    hot: true,
    method: "GET",
    path: "/en/list/{token} (the same 50 items, server-rendered, view metered)",
    site: true,
    relativeTo: "public.items",
    setup: async (api) => ({ path: `/en/list/${(await sharedBenchList(api)).token}` }),
  },
  {
    name: "og.list",
    hot: true,
    method: "GET",
    path: "/og/list/{token}?lang=de (50 items)",
    setup: async (api) => {
      const { token } = await listWithProducts(api, 50, true);
      return { path: `/og/list/${token}?lang=de` };
    },
  },
  {
    name: "hosted.save",
    method: "POST",
    path: "/hosted/save (product known)",
    setup: async (api) => {
      const { user, dbId } = await listWithProducts(api, 1, false);
      return {
        path: "/hosted/save",
        headers: { authorization: `Bearer ${user.access_token}` },
        body: { wishlistId: dbId, product: benchProduct(0) },
      };
    },
  },
  {
    name: "widget.init",
    hot: true,
    reference: true,
    method: "POST",
    path: "/widget/init",
    setup: async (api) => {
      const { key } = await partnerKey(api);
      return { headers: { authorization: `Bearer ${key}` }, body: { origin: "https://bench-shop.example.com" } };
    },
  },
  {
    name: "widget.save",
    hot: true,
    method: "POST",
    path: "/widget/save (product known)",
    reference: true,
    setup: async (api, target) => {
      const { key } = await partnerKey(api);
      const init = await target.request("POST", "/widget/init", {
        headers: { authorization: `Bearer ${key}` },
        body: { origin: "https://bench-shop.example.com" },
      });
      const { user, dbId } = await listWithProducts(api, 1, false);
      return {
        path: "/widget/save",
        headers: { authorization: `Bearer ${user.access_token}`, "x-widget-token": init.token },
        body: { wishlistId: dbId, product: benchProduct(0) },
      };
    },
  },
  {
    name: "shops.products",
    method: "GET",
    path: "/shops/{handle}/products (200 products, first page of 24)",
    setup: async (api) => {
      const { handle } = await shopWithProducts(api, 200);
      return { path: `/shops/${handle}/products` };
      },
    },
    {
    name: "discover.trending",
    method: "GET",
    path: "/discover/trending?days=7&limit=20 (ranking of the week's saves, cached per instance)",
    setup: async (api) => {
      // Saves in the window: lists of 50, 30 and 10 products, so the ranking has 3, 2 and 1 saves.
      for (const count of [50, 30, 10]) await listWithProducts(api, count, false);
      return { path: "/discover/trending?days=7&limit=20" };
    },
  },
];

/**
 * A published shop with `count` products in its catalogue. Products come from
 * the shop's platform webhooks in production; here they are written directly.
 */
async function shopWithProducts(api: BenchApi, count: number): Promise<{ handle: string }> {
  if (!api.databaseUrl) throw new Error("shops.products needs the bench database");
  const { partner } = await api.wish(["partner", "create", "--name", "Bench storefront", "--email", "bench@shop.example"]);
  const tag = randomBytes(4).toString("hex");
  const { shop } = await api.wish([
    "shop", "create", "--partner", String(partner.partner_id), "--domain", `bench-${tag}.myshopify.com`,
    "--name", "Bench storefront", "--handle", `bench-${tag}`, "--published",
  ]);
  const rows = Array.from({ length: count }, (_, n) =>
    `('https://bench-${tag}.example.com/products/p${n}', ${shop.id}, '${n % 4 === 0 ? "Teapots" : "Mugs"}', true, CURRENT_TIMESTAMP)`,
  );
  await sql(api.databaseUrl, `INSERT INTO "Product" ("canonicalUrl", "sourceShopId", "productType", "available", "updatedAt") VALUES ${rows.join(", ")}`);
  await sql(
    api.databaseUrl,
    `INSERT INTO "ProductLocalization" ("productId", "market", "title", "description", "imageUrl", "priceMinor", "currency", "updatedAt")
     SELECT "id", '', 'Bench product ' || "id", 'A product for the benchmark', 'https://bench.example.com/i.jpg', 1000 + "id", 'EUR', CURRENT_TIMESTAMP
       FROM "Product" WHERE "sourceShopId" = ?`,
    [shop.id],
  );
  return { handle: shop.handle };
}

/** A Scale partner (never capped, finite limit: the whole metering path runs) and a test key. */
export async function partnerKey(api: BenchApi): Promise<{ key: string }> {
  const { partner } = await api.wish(["partner", "create", "--name", "Bench shop", "--email", "bench@shop.example", "--plan", "scale"]);
  return (await api.wish(["key", "create", "--partner", String(partner.partner_id), "--env", "test"])).key;
}

export const benchProduct = (n: number) => ({
  url: `https://shop.example.com/products/bench-${n}?utm_source=bench`,
  title: `Bench product ${n}`,
  description: "A product for the benchmark",
  price: 1000 + n,
  currency: "EUR",
  marketCode: "de-DE",
});

// One public 50-item list for the read scenarios that compare with each other (reads change nothing).
const benchLists = new WeakMap<BenchApi, ReturnType<typeof listWithProducts>>();
export function sharedBenchList(api: BenchApi) {
  let list = benchLists.get(api);
  if (!list) benchLists.set(api, (list = listWithProducts(api, 50, true)));
  return list;
}

/** A user with a list of `count` saved products (saved through the API). */
export async function listWithProducts(api: BenchApi, count: number, makePublic: boolean) {
  const user = await api.anonymousUser();
  const auth = { authorization: `Bearer ${user.access_token}` };
  const created = await api.request("POST", "/hosted/me/lists", { headers: auth, body: { name: "Bench list" } });
  const dbId: number = created.list.db_id;
  for (let n = 0; n < count; n++) {
    await api.request("POST", "/hosted/save", { headers: auth, body: { wishlistId: dbId, product: benchProduct(n) } });
  }
  if (makePublic) await api.request("PUT", `/hosted/lists/${created.token}`, { headers: auth, body: { share_public: true } });
  return { user, token: created.token as string, dbId };
}
