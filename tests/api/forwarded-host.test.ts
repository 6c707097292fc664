// The page-write check (docs/security.md): a write to a page must come
// from the page's own origin, the host being `Host`, or `X-Forwarded-Host`
// only when the connection comes from a proxy in TRUSTED_PROXIES. Anyone can
// send the header, so without a trusted proxy it must not decide (nor reach
// Remix, whose own check and request URL read it). Real HTTP against two
// built servers: one trusting no proxy, one trusting loopback (the test's
// connections come from 127.0.0.1, as from a proxy on the same machine).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor } from "../support/api.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { sql } from "../support/sql.ts";

let direct: TestServer;
let proxied: TestServer;

beforeAll(async () => {
  [direct, proxied] = await Promise.all([startServer(), startServer({ TRUSTED_PROXIES: "loopback" })]);
});
afterAll(async () => {
  await Promise.all([direct?.stop(), proxied?.stop()]);
});

/** A public list with one item on `server`: the share page's path and the item id. */
async function sharedItem(server: TestServer) {
  const api = await apiFor(server);
  const owner = await api.anonymousUser();
  const list = await api.post("/hosted/me/lists", { token: owner.accessToken, body: { name: "Birthday" } });
  expect(list.status, list.text).toBe(200);
  const saved = await api.post("/hosted/save", {
    token: owner.accessToken,
    body: { wishlistId: list.body.list.db_id, product: { url: "https://shop.example/products/lamp", title: "Lamp", price: 4900, currency: "EUR" } },
  });
  expect(saved.status, saved.text).toBe(200);
  expect((await api.put(`/hosted/lists/${list.body.token}`, { token: owner.accessToken, body: { share_public: true } })).status).toBe(200);
  return { page: `/en/list/${list.body.token}`, itemId: saved.body.item_id as number };
}

const markPurchased = (server: TestServer, page: string, itemId: number, headers: Record<string, string>) =>
  fetch(server.url + page, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: `itemId=${itemId}&purchased=true&enhanced=1`,
  });

async function purchased(server: TestServer, itemId: number): Promise<boolean> {
  const [row] = await sql<{ purchased: unknown }>(server.databaseUrl, `SELECT purchased FROM "ListItem" WHERE id = ?`, [itemId]);
  return row!.purchased === true || row!.purchased === 1;
}

describe("X-Forwarded-Host without TRUSTED_PROXIES", () => {
  it("does not make another origin's write to a page same-origin: 403 forbidden, nothing written", async () => {
    const { page, itemId } = await sharedItem(direct);
    const forged = await markPurchased(direct, page, itemId, { origin: "https://evil.example", "x-forwarded-host": "evil.example" });
    expect(forged.status).toBe(403);
    expect(await forged.json()).toMatchObject({ error: "forbidden" });
    expect(await purchased(direct, itemId)).toBe(false);
    // The page's own origin still writes, whatever the header says.
    const own = await markPurchased(direct, page, itemId, { origin: direct.url, "x-forwarded-host": "evil.example" });
    expect(own.status).toBe(200);
    expect(await own.json()).toEqual({ ok: true, purchased: true });
    expect(await purchased(direct, itemId)).toBe(true);
  });

  it("never reaches Remix: a same-origin form post to a Remix page is answered, not a 500 from Remix's own origin check", async () => {
    const res = await fetch(`${direct.url}/en/lists`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: direct.url, "x-forwarded-host": "evil.example" },
      body: "intent=sign-in&email=nobody%40example.com&password=wrong",
    });
    await res.text();
    // A wrong password: the page with its message (not the page-write check's 403, not Remix's 500).
    expect(res.status).toBeGreaterThanOrEqual(200);
    expect(res.status).toBeLessThan(500);
    expect(res.status).not.toBe(403);
    expect(direct.output()).not.toContain("does not match `origin`");
  });
});

describe("X-Forwarded-Host from a proxy in TRUSTED_PROXIES", () => {
  it("names the public host: a write from that origin goes through, another origin's is refused", async () => {
    const { page, itemId } = await sharedItem(proxied);
    const foreign = await markPurchased(proxied, page, itemId, { origin: "https://evil.example", "x-forwarded-host": "wish.example.com" });
    expect(foreign.status).toBe(403);
    expect(await purchased(proxied, itemId)).toBe(false);
    const viaProxy = await markPurchased(proxied, page, itemId, { origin: "https://wish.example.com", "x-forwarded-host": "wish.example.com" });
    expect(viaProxy.status).toBe(200);
    expect(await viaProxy.json()).toEqual({ ok: true, purchased: true });
    expect(await purchased(proxied, itemId)).toBe(true);
  });
});
