// Requests signed exactly as Shopify signs them (the app proxy's query
// signature, Flow's body HMAC) but carrying what Shopify would never send,
// and Shopify's auth pages asked to leave for an untrusted address: the built
// server answers 4xx with the SPEC error body, never 5xx, never a redirect off
// the app. Shopify joins a repeated proxy parameter's values with commas when
// it signs, so a storefront URL that adds its own `logged_in_customer_id` or
// `shop` still carries a valid signature: it must be refused all the same.
import { randomBytes, randomUUID } from "node:crypto";
import { getHmac } from "@shopify/shopify-api/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { jsonOrNull, sharedShopifyApi } from "../support/api.ts";
import { signedProxyQuery, type ProxyParams } from "../support/app-proxy.ts";
import { provisioner } from "../support/provision.ts";
import { SHARED_SHOPIFY } from "../support/shared-shopify.ts";

// The shared server with the Shopify app's keys; the shop is this file's own.
const SECRET = SHARED_SHOPIFY.secret;
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
let server: Awaited<ReturnType<typeof sharedShopifyApi>>["server"];
let p: Awaited<ReturnType<typeof provisioner>>;
let db: Awaited<typeof import("~/db.server")>["db"];
let shopDomain: string;

beforeAll(async () => {
  ({ server } = await sharedShopifyApi());
  p = await provisioner(server);
  ({ db } = await import("~/db.server"));
  const partner = await p.partner();
  shopDomain = `hostile-${randomBytes(4).toString("hex")}.myshopify.com`;
  await p.shop(partner.id, { domain: shopDomain });
  await db.session.create({ data: { id: `offline_${shopDomain}`, shop: shopDomain, state: "", isOnline: false, accessToken: "shpat_x", scope: "read_products" } });
}, 60_000);

/** A deterministic stream of numbers in [0, 1): the same values every run, so a failure replays. */
function seeded(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function answer(res: Response) {
  const text = await res.text();
  return { status: res.status, location: res.headers.get("location"), text, body: jsonOrNull(text) as Record<string, unknown> | null };
}

/**
 * /proxy<path> as Shopify forwards it (the page by GET, the rest by POST with a JSON body); `params` are
 * signed in the order given, Shopify's own after the storefront's.
 */
async function proxied(path: string, params: ProxyParams) {
  const query = signedProxyQuery(params, SECRET);
  const post = path !== "";
  return answer(
    await fetch(`${server.url}/proxy${path}?${query}`, {
      method: post ? "POST" : "GET",
      ...(post ? { body: JSON.stringify({ sid: "x", item_id: 1 }), headers: { "content-type": "application/json", origin: `https://${shopDomain}` } } : {}),
    }),
  );
}

/** A POST signed as Flow signs it (base64 HMAC-SHA256 of the raw body) to `path`. */
async function flowPost(path: string, rawBody: string) {
  return answer(
    await fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-shopify-hmac-sha256": getHmac(rawBody, SECRET) },
      body: rawBody,
    }),
  );
}

const expectRefused = (res: Awaited<ReturnType<typeof answer>>, what: string) => {
  expect(res.status, `${what}: ${res.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${what}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
};

const HOSTILE_STRINGS = [
  "",
  " ",
  "abc",
  "-1",
  "0",
  "1e5",
  "0x10",
  "1.5",
  "١٢٣",
  "12 34",
  "7".repeat(21),
  "9".repeat(4000),
  "\u0000",
  "\ud800",
  "gid://shopify/Customer/abc",
  "%",
  "1,2",
  "<script>",
];

describe("hostile input signed as Shopify signs it", () => {
  it("a repeated logged_in_customer_id or shop in a signed proxy query is refused, and a customer is never taken from the storefront's own parameter", async () => {
    const victim = "7000000001";
    // The storefront's URL names a customer; Shopify appends its own (blank for a guest) and signs both, joined by a comma.
    const asVictim = await proxied("", { shop: shopDomain, extra: { logged_in_customer_id: victim } });
    expect(asVictim.status, asVictim.text).toBe(400);
    expect(asVictim.body).toMatchObject({ error: "repeated_parameter" });
    // The same with a signed-in customer of its own.
    const twoCustomers = await proxied("/items", { shop: shopDomain, customerId: "7000000002", extra: { logged_in_customer_id: victim } });
    expect(twoCustomers.status).toBe(400);
    // Another shop named first.
    // (The library's own check of the joined `shop` may refuse it first, as unsigned.)
    for (const first of ["someone-else.myshopify.com", shopDomain]) {
      const other = await proxied("", { shop: shopDomain, extra: { shop: first } });
      expect([400, 401], other.text).toContain(other.status);
      expect(other.body).toMatchObject({ error: other.status === 400 ? "repeated_parameter" : "unauthorized" });
    }
    const prefix = await proxied("/items", { shop: shopDomain, extra: { path_prefix: "/apps/other" } });
    expect(prefix.status).toBe(400);
    // Writes go through the same door: nothing is linked or saved.
    const links = await db.shopCustomer.count({ where: { customerId: victim } });
    expect(links).toBe(0);
    const session = await proxied("/session", { shop: shopDomain, extra: { logged_in_customer_id: victim } });
    expect(session.status).toBe(400);
    // As Shopify sends it, the page answers.
    expect((await proxied("", { shop: shopDomain, customerId: "7000000002" })).status).toBe(200);
  });

  it("signed proxy requests with values Shopify would not send answer 4xx", async () => {
    const random = seeded(Number(process.env.FUZZ_SEED ?? 20261128));
    const paths = ["", "/items", "/share", "/session", "/link", "/remove"];
    for (const value of HOSTILE_STRINGS) {
      for (const path of paths) {
        expectRefused(await proxied(path, { shop: shopDomain, customerId: value === "" ? "x" : value }), `customer ${JSON.stringify(value).slice(0, 40)} ${path}`);
        expectRefused(await proxied(path, { shop: value }), `shop ${JSON.stringify(value).slice(0, 40)} ${path}`);
      }
    }
    for (const shop of [`${"a".repeat(300)}.myshopify.com`, "evil.example", "HOSTILE.MYSHOPIFY.COM.evil", `${shopDomain}\u0000`]) {
      expectRefused(await proxied("/items", { shop }), `shop ${shop.slice(0, 40)}`);
    }
    // Random storefront parameters around Shopify's: lengths, characters, repeats.
    for (let i = 0; i < 40; i++) {
      const length = Math.floor(random() * (random() < 0.2 ? 5000 : 30));
      const value = Array.from({ length }, () => String.fromCharCode(32 + Math.floor(random() * 0x2fff))).join("");
      const key = ["logged_in_customer_id", "shop", "path_prefix", "locale", "id"][Math.floor(random() * 5)]!;
      const res = await proxied(paths[i % paths.length]!, { shop: shopDomain, customerId: random() < 0.5 ? "7000000003" : undefined, extra: { [key]: value } });
      expect(res.status, `${key}=${JSON.stringify(value).slice(0, 60)}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
    }
  }, 120_000);

  it("signed Flow requests with wrong JSON types answer 4xx", async () => {
    const action = (body: unknown) => flowPost("/flow/actions/add-to-wishlist", typeof body === "string" ? body : JSON.stringify(body));
    const lifecycle = (body: unknown) => flowPost("/flow/lifecycle", typeof body === "string" ? body : JSON.stringify(body));
    const base = { shop_id: "1", shopify_domain: shopDomain, action_run_id: randomUUID(), action_definition_id: "x", handle: "wishlist-add-product" };
    const bodies: unknown[] = [
      null,
      [],
      "[]",
      "\"text\"",
      "1",
      "true",
      "{",
      {},
      { ...base, shopify_domain: 5 },
      { ...base, shopify_domain: ["a.myshopify.com"] },
      { ...base, shopify_domain: { x: 1 } },
      { ...base, shopify_domain: null },
      { ...base, shopify_domain: "a".repeat(5000) },
      { ...base, shopify_domain: "evil.example" },
      { ...base, shopify_domain: "unknown-shop.myshopify.com", properties: { customer_id: "1", product_id: "2" } },
      { ...base },
      { ...base, properties: null },
      { ...base, properties: [] },
      { ...base, properties: "x" },
      { ...base, handle: 5, properties: {} },
      { ...base, properties: { customer_id: null, product_id: null } },
      ...HOSTILE_STRINGS.map((v) => ({ ...base, properties: { customer_id: v, product_id: "1" } })),
      ...HOSTILE_STRINGS.map((v) => ({ ...base, properties: { customer_id: "7000000001", product_id: v } })),
      { ...base, properties: { customer_id: 1.5, product_id: -3 } },
      { ...base, properties: { customer_id: 1e300, product_id: 2 ** 60 } },
      { ...base, properties: { customer_id: [1], product_id: { id: 1 } } },
      { ...base, properties: { customer_id: "gid://shopify/Customer/0", product_id: "gid://shopify/Product/0" } },
    ];
    for (const body of bodies) {
      const label = (typeof body === "string" ? body : JSON.stringify(body)).slice(0, 80);
      const res = await action(body);
      expectRefused(res, `action ${label}`);
      expect(res.body, label).toMatchObject({ error: expect.any(String) });
      const life = await lifecycle(body);
      expectRefused(life, `lifecycle ${label}`);
    }
    for (const bad of [
      { flow_trigger_definition_id: "x".repeat(10_000), has_enabled_flow: true, shopify_domain: shopDomain, timestamp: new Date().toISOString() },
      { flow_trigger_definition_id: "wishlist-product-added", has_enabled_flow: "yes", shopify_domain: shopDomain, timestamp: new Date().toISOString() },
      { flow_trigger_definition_id: "wishlist-product-added", has_enabled_flow: true, shopify_domain: shopDomain, timestamp: "9999999-01-01T00:00:00Z" },
      { flow_trigger_definition_id: ["x"], has_enabled_flow: true, shopify_domain: shopDomain, timestamp: 5 },
    ]) {
      expectRefused(await lifecycle(bad), JSON.stringify(bad).slice(0, 80));
    }
  }, 120_000);

  it("exit-iframe to an untrusted destination answers 4xx, neither 500 nor a redirect off the app", async () => {
    const host = Buffer.from(`admin.shopify.com/store/${shopDomain.split(".")[0]}`).toString("base64url");
    const exit = (destination: string | null) => {
      const q = new URLSearchParams({ shop: shopDomain, host, embedded: "1" });
      if (destination !== null) q.set("exitIframe", destination);
      return fetch(`${server.url}/auth/exit-iframe?${q}`, { redirect: "manual", headers: { "user-agent": BROWSER } }).then(answer);
    };
    for (const destination of [
      "https://evil.example/phish",
      "//evil.example/phish",
      "javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      `https://${shopDomain}/`,
      `https://${shopDomain}:8443/admin`,
      "https://cdn.shopify.com/x",
      "http://admin.shopify.com/",
      "https://admin.shopify.com.evil.example/",
      " ",
      "",
      "x".repeat(5000),
      null,
    ]) {
      const res = await exit(destination);
      expectRefused(res, `exitIframe=${String(destination).slice(0, 60)}`);
      if (res.location) expect(new URL(res.location, server.url).origin).toBe(server.url);
      expect(res.text).not.toContain("evil.example");
    }
    // Shopify's auth pages with a `shop` or `host` that is no shop's: 4xx too.
    for (const [path, query] of [
      ["/auth/exit-iframe", { shop: "evil.example", host, exitIframe: "/app" }],
      ["/auth/exit-iframe", { shop: shopDomain, host: "not-base64!", exitIframe: "/app" }],
      ["/auth/session-token", { shop: "x".repeat(3000), host: "a" }],
      ["/auth", { shop: "\u0000", embedded: "1" }],
      ["/auth/callback", { shop: "evil.example", code: "1", hmac: "x", state: "y", timestamp: "1" }],
    ] as const) {
      const res = await fetch(`${server.url}${path}?${new URLSearchParams(query as Record<string, string>)}`, { redirect: "manual", headers: { "user-agent": BROWSER } }).then(answer);
      expect(res.status, `${path} ${JSON.stringify(query).slice(0, 80)}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
      if (res.location) expect(new URL(res.location, server.url).origin, res.location).toBe(server.url);
    }
    // A trusted destination still renders the exit page (App Bridge redirects from inside the admin).
    const trusted = await exit(`https://admin.shopify.com/store/${shopDomain.split(".")[0]}/apps/x`);
    expect(trusted.status).toBeLessThan(400);
  }, 60_000);
});
