// The Free plan's pause (SPEC 8.2, 3) cannot be forced by a few sources
// (docs/api.md "Which saves are actions"): on a plan that pauses at its limit,
// each partner and shopper, each shopper over all such partners, and each
// partner and client address count a share of the month, besides the hourly
// bounds. The server trusts the test as its proxy (TRUSTED_PROXIES), so
// X-Forwarded-For names the client address.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api } from "../support/api.ts";
import { provisioner } from "../support/provision.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { sql } from "../support/sql.ts";

const PER_SHOPPER_MONTH = 6;
const PER_ACCOUNT_MONTH = 9;
const PER_ADDRESS_MONTH = 10;
let server: TestServer;
let api: Api;
let p: Awaited<ReturnType<typeof provisioner>>;

beforeAll(async () => {
  server = await startServer({
    TRUSTED_PROXIES: "127.0.0.1",
    SAVES_PER_SHOPPER_MONTH: String(PER_SHOPPER_MONTH),
    SAVES_PER_ACCOUNT_MONTH: String(PER_ACCOUNT_MONTH),
    SAVES_PER_ADDRESS_MONTH: String(PER_ADDRESS_MONTH),
  });
  api = await apiFor(server);
  p = await provisioner(server);
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

const period = () => new Date().toISOString().slice(0, 7);
let addresses = 0;
/** A client address of its own (documentation range 198.18.0.0/15). */
const newAddress = () => `198.18.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;

async function counted(partnerId: number): Promise<number> {
  const rows = await sql<{ saves: number | string }>(server.databaseUrl, `SELECT saves FROM "UsageCounter" WHERE "partnerId" = ? AND period = ?`, [partnerId, period()]);
  return Number(rows[0]?.saves ?? 0);
}

async function partner(plan: string) {
  const row = await p.partner(plan);
  const key = await p.key(row.id);
  const init = await api.post("/widget/init", { headers: { authorization: `Bearer ${key.key}` }, body: { origin: "https://free.example.com" } });
  expect(init.status, init.text).toBe(200);
  return { id: row.id as number, token: init.body.token as string };
}

async function shopper(address: string) {
  const user = await api.anonymousUser();
  const list = await api.post("/hosted/me/lists", { token: user.accessToken, body: { name: "Gifts" }, headers: { "x-forwarded-for": address } });
  expect(list.status, list.text).toBe(200);
  return { accessToken: user.accessToken as string, dbId: list.body.list.db_id as number };
}

const save = (w: { token: string }, s: { accessToken: string; dbId: number }, address: string) =>
  api.post("/widget/save", {
    token: s.accessToken,
    headers: { "x-widget-token": w.token, "x-forwarded-for": address },
    body: { wishlistId: s.dbId, product: { url: `https://free.example.com/products/${Math.random().toString(36).slice(2)}`, title: "Thing" } },
  });

describe("the Free plan's pause and a few sources", () => {
  it("a handful of addresses, each using fresh anonymous accounts within the hourly bounds, count only their monthly share and do not pause the shop", async () => {
    const shop = await partner("free");
    // Seven addresses, 30 distinct saves each (the hourly per-address bound) through six fresh accounts: 210 saves.
    for (let a = 0; a < 7; a++) {
      const address = newAddress();
      const accounts = await Promise.all(Array.from({ length: 6 }, () => shopper(address)));
      const answers = await Promise.all(accounts.flatMap((s) => Array.from({ length: 5 }, () => save(shop, s, address))));
      for (const res of answers) expect(res.status, res.text).toBe(200);
    }
    // At most PER_ADDRESS_MONTH each: 70 of Free's 200, counted exactly under the races.
    expect(await counted(shop.id)).toBe(7 * PER_ADDRESS_MONTH);
    // The shop is not paused: a real shopper from elsewhere still saves, and counts.
    const real = await shopper(newAddress());
    const res = await save(shop, real, newAddress());
    expect(res.status, res.text).toBe(200);
    expect(await counted(shop.id)).toBe(7 * PER_ADDRESS_MONTH + 1);
  }, 120_000);

  it("one account counts at most its monthly share with a shop, and over all Free shops, from any number of addresses", async () => {
    const a = await partner("free");
    const b = await partner("free");
    const s = await shopper(newAddress());
    // Every save from another address: only the account's bounds apply.
    for (let i = 0; i < PER_SHOPPER_MONTH + 3; i++) expect((await save(a, s, newAddress())).status).toBe(200);
    expect(await counted(a.id)).toBe(PER_SHOPPER_MONTH);
    for (let i = 0; i < PER_SHOPPER_MONTH; i++) expect((await save(b, s, newAddress())).status).toBe(200);
    expect(await counted(b.id)).toBe(PER_ACCOUNT_MONTH - PER_SHOPPER_MONTH);
    // Paid plans are never paused: their counts keep the hourly bounds only.
    const paid = await partner("starter");
    for (let i = 0; i < PER_SHOPPER_MONTH + 2; i++) expect((await save(paid, s, newAddress())).status).toBe(200);
    expect(await counted(paid.id)).toBe(PER_SHOPPER_MONTH + 2);
  }, 60_000);
});
