// The merchant admin's keys, tokens, drawer and usage pages: their loaders and
// actions called as Remix calls them, with requests signed like App Bridge's
// and a fake Admin API. Each shop sees and changes only its own records.
import { createServer } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { adminRequest, FakeAdminApi, shopifyTestApp } from "../support/shopify.ts";
import { freePort } from "../support/net.ts";

let api: FakeAdminApi;
let keysPage: typeof import("~/routes/app.keys");
let basketsPage: typeof import("~/routes/app.baskets");
let usagePage: typeof import("~/routes/app.usage");
let hookPort: number;
const hookCalls: string[] = [];

beforeAll(async () => {
  hookPort = await freePort();
  createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      hookCalls.push(body);
      res.writeHead(200).end("ok");
    });
  }).listen(hookPort, "127.0.0.1");
  // Read at the app's first import: the drawer's test webhook may reach this local server.
  process.env.FETCH_TEST_ALLOW_HOSTS = `127.0.0.1:${hookPort}`;
  ({ api } = await shopifyTestApp());
  keysPage = await import("~/routes/app.keys");
  basketsPage = await import("~/routes/app.baskets");
  usagePage = await import("~/routes/app.usage");
});

/** A shop that installs the app on its first admin request (token exchange against the fake Admin API). */
const h = {
  installed: async (name: string) => api.addShop(`${name}.myshopify.com`).domain,
  request: (shop: string, path: string, form?: Record<string, string>) => adminRequest(shop, path, form ? { method: "POST", form } : {}),
  /** The shop bought `plan`: Shopify now reports the subscription as active. */
  subscribe: (shop: string, plan: string) => {
    api.shops.get(shop)!.activeSubscriptions = [
      { id: `gid://shopify/AppSubscription/${plan}-${shop}`, name: plan, status: "ACTIVE", test: true, trialDays: 14, currentPeriodEnd: null },
    ];
  },
};

const unique = () => `shop-${Math.random().toString(36).slice(2, 9)}`;
const args = (request: Request) => ({ request, params: {}, context: {} });

async function load<T>(loader: (a: ReturnType<typeof args>) => Promise<Response>, shop: string, path: string): Promise<T> {
  const res = await loader(args(await h.request(shop, path)));
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

async function post(action: (a: ReturnType<typeof args>) => Promise<Response>, shop: string, path: string, form: Record<string, string>) {
  const res = await action(args(await h.request(shop, path, form)));
  return { status: res.status, body: (await res.json()) as { ok: boolean; error?: string; [k: string]: unknown } };
}

type KeysData = { keys: Array<{ id: number; key: string; environment: string; status: string; allowed_domains: string[]; grace_expires_at: string | null }>; tokens: Array<{ id: number; name: string; revoked_at: string | null }> };

describe("/app/keys", () => {
  it("lists the shop's live key; creates, rotates, restricts, revokes and deletes keys; personal access tokens shown once", async () => {
    const shop = await h.installed(unique());
    const first = await load<KeysData>(keysPage.loader, shop, "/app/keys");
    expect(first.keys).toHaveLength(1);
    expect(first.keys[0]).toMatchObject({ environment: "live", status: "active" });
    expect(first.keys[0]!.allowed_domains).toEqual(expect.arrayContaining([shop]));

    const created = await post(keysPage.action, shop, "/app/keys", { intent: "create-test-key" });
    expect(created.body).toMatchObject({ ok: true, created: expect.stringMatching(/^pk_test_/) });
    const test = (await load<KeysData>(keysPage.loader, shop, "/app/keys")).keys.find((k) => k.key === created.body.created)!;

    const restricted = await post(keysPage.action, shop, "/app/keys", { intent: "allow-list", id: String(test.id), domains: "www.example.com, *.example.org" });
    expect(restricted.body.ok).toBe(true);
    const refused = await post(keysPage.action, shop, "/app/keys", { intent: "allow-list", id: String(test.id), domains: "not a domain!" });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ ok: false, error: expect.any(String) });

    const rotated = await post(keysPage.action, shop, "/app/keys", { intent: "rotate", id: String(test.id) });
    expect(rotated.body.created).toMatch(/^pk_test_/);
    let keys = (await load<KeysData>(keysPage.loader, shop, "/app/keys")).keys;
    const old = keys.find((k) => k.id === test.id)!;
    expect(old.status).toBe("rotated");
    expect(new Date(old.grace_expires_at!).getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);
    const successor = keys.find((k) => k.key === rotated.body.created)!;
    expect(successor.allowed_domains).toEqual(["www.example.com", "*.example.org"]);

    expect((await post(keysPage.action, shop, "/app/keys", { intent: "revoke", id: String(successor.id) })).body.ok).toBe(true);
    expect((await post(keysPage.action, shop, "/app/keys", { intent: "delete", id: String(successor.id) })).body.ok).toBe(true);
    keys = (await load<KeysData>(keysPage.loader, shop, "/app/keys")).keys;
    expect(keys.map((k) => k.id)).not.toContain(successor.id);

    const token = await post(keysPage.action, shop, "/app/keys", { intent: "create-token", name: "CI" });
    expect(token.body.token).toMatch(/^wpat_/);
    const listed = (await load<KeysData>(keysPage.loader, shop, "/app/keys")).tokens;
    expect(listed).toEqual([expect.objectContaining({ name: "CI", revoked_at: null })]);
    expect(JSON.stringify(listed)).not.toContain(String(token.body.token));
    expect((await post(keysPage.action, shop, "/app/keys", { intent: "revoke-token", id: String(listed[0]!.id) })).body.ok).toBe(true);
    expect((await load<KeysData>(keysPage.loader, shop, "/app/keys")).tokens[0]!.revoked_at).not.toBeNull();
  });

  it("one shop never sees or changes another shop's keys or tokens", async () => {
    const a = await h.installed(unique());
    const b = await h.installed(unique());
    const aKeys = (await load<KeysData>(keysPage.loader, a, "/app/keys")).keys;
    await post(keysPage.action, a, "/app/keys", { intent: "create-token", name: "A's" });
    const aToken = (await load<KeysData>(keysPage.loader, a, "/app/keys")).tokens[0]!;

    const bView = await load<KeysData>(keysPage.loader, b, "/app/keys");
    expect(bView.keys.map((k) => k.id)).not.toContain(aKeys[0]!.id);
    expect(bView.tokens).toEqual([]);
    for (const intent of ["revoke", "rotate", "delete"]) {
      const res = await post(keysPage.action, b, "/app/keys", { intent, id: String(aKeys[0]!.id) });
      expect(res.status).toBe(404);
      expect(res.body.ok).toBe(false);
    }
    expect((await post(keysPage.action, b, "/app/keys", { intent: "revoke-token", id: String(aToken.id) })).status).toBe(404);
    const after = await load<KeysData>(keysPage.loader, a, "/app/keys");
    expect(after.keys[0]!.status).toBe("active");
    expect(after.tokens[0]!.revoked_at).toBeNull();
  });

  it("a request without Shopify's session token is not answered with data", async () => {
    const outcome = await keysPage.loader(args(new Request("http://localhost/app/keys"))).catch((err: unknown) => err);
    expect(outcome).toBeInstanceOf(Response);
    expect([302, 401, 410]).toContain((outcome as Response).status);
  });
});

type BasketsData = { baskets: Array<{ id: string; layout: string; primaryColor: string | null; webhookUrl: string | null }>; webhooks: boolean };

describe("/app/baskets", () => {
  it("edits the drawer; the webhook needs Growth, then is saved with a secret shown once and can be tested", async () => {
    const shop = await h.installed(unique());
    const { baskets, webhooks } = await load<BasketsData>(basketsPage.loader, shop, "/app/baskets");
    expect(baskets).toHaveLength(1);
    expect(webhooks).toBe(false);
    const id = baskets[0]!.id;
    const form = { id, layout: "modal", primaryColor: "#aa3300", mode: "cart", cartUrl: "/cart/add?id={variant_id}&quantity={quantity}" };
    expect((await post(basketsPage.action, shop, "/app/baskets", form)).body).toMatchObject({ ok: true, message: "Saved." });
    expect((await load<BasketsData>(basketsPage.loader, shop, "/app/baskets")).baskets[0]).toMatchObject({ layout: "modal", primaryColor: "#aa3300" });

    const hookUrl = `http://127.0.0.1:${hookPort}/hook`;
    const free = await post(basketsPage.action, shop, "/app/baskets", { ...form, webhookUrl: hookUrl });
    expect(free.status).toBe(403);
    expect(free.body.error).toContain("Growth");

    h.subscribe(shop, "Growth");
    expect((await load<BasketsData>(basketsPage.loader, shop, "/app/baskets")).webhooks).toBe(true);
    const growth = await post(basketsPage.action, shop, "/app/baskets", { ...form, webhookUrl: hookUrl });
    expect(growth.body).toMatchObject({ ok: true, webhookSecret: expect.any(String) });
    const tested = await post(basketsPage.action, shop, "/app/baskets", { intent: "test-webhook", id });
    expect(tested.body).toMatchObject({ ok: true, message: "Your endpoint answered 200." });
    expect(hookCalls.some((c) => c.includes('"basket.test"'))).toBe(true);
  });

  it("another shop's drawer is not found", async () => {
    const a = await h.installed(unique());
    const b = await h.installed(unique());
    const id = (await load<BasketsData>(basketsPage.loader, a, "/app/baskets")).baskets[0]!.id;
    const res = await post(basketsPage.action, b, "/app/baskets", { id, layout: "modal", primaryColor: "#000000", mode: "cart" });
    expect(res.status).toBe(404);
    expect(res.body.ok).toBe(false);
  });
});

describe("/app/usage", () => {
  it("shows the month's actions by kind and by day, and requests per key", async () => {
    const shop = await h.installed(unique());
    await load(usagePage.loader, shop, "/app/usage"); // provisions the shop
    const { db } = await import("~/db.server");
    const { saveMeter } = await import("~/domains/metering/actions.server");
    const { transaction } = await import("~/db/sql.server");
    const row = await db.platformShop.findUniqueOrThrow({ where: { domain: shop } });
    const meter = await saveMeter(row.partnerId);
    // Two new items saved by one shopper: two actions.
    const saver = { userId: "admin-usage-shopper", address: "203.0.113.9" };
    await transaction(meter!.count(saver, { listId: 1, productId: 1, added: true }));
    await transaction(meter!.count(saver, { listId: 1, productId: 2, added: true }));

    const data = await load<{
      usage: { actions_used: number; breakdown: { save: number } };
      history: { daily: Array<{ day: string; saves: number }>; keys: Array<{ requests: number; environment: string }> };
    }>(usagePage.loader, shop, "/app/usage");
    expect(data.usage.actions_used).toBe(2);
    const today = new Date().toISOString().slice(0, 10);
    expect(data.history.daily.at(-1)).toMatchObject({ day: today, saves: 2 });
    expect(data.history.daily).toHaveLength(new Date().getUTCDate());
    expect(data.history.keys).toEqual([expect.objectContaining({ environment: "live", requests: 0 })]);
  });
});
