// Issue 7 item 2: one shopper's save never rewrites another shopper's items.
// Facts a client sends stay on its own item; the shared catalogue changes only
// from sources entitled to speak for the product (the page's own scrape, a
// widget on the product's own domain).
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api } from "./support/api.ts";
import { freePort, startServer, type TestServer } from "./support/server.ts";
import { provisioner } from "./support/provision.ts";
import { sql } from "./support/sql.ts";

let server: TestServer;
let api: Api;
let page: Server;
let pagePort: number;
let p: Awaited<ReturnType<typeof provisioner>>;

beforeAll(async () => {
  pagePort = await freePort();
  // The product's own page: what a scrape reads.
  page = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(`<html><head><title>Real Gift</title><meta property="og:title" content="Real Gift"></head><body></body></html>`);
  });
  await new Promise<void>((r) => page.listen(pagePort, "127.0.0.1", r));
  server = await startServer({ FETCH_TEST_ALLOW_HOSTS: `127.0.0.1:${pagePort}` });
  api = await apiFor(server);
  p = await provisioner(server);
});
afterAll(async () => {
  await server?.stop();
  await new Promise((r) => page?.close(r));
});

async function shopper() {
  const user = await api.anonymousUser();
  const init = await api.post("/hosted/me/init", { token: user.accessToken });
  return { ...user, dbId: init.body.list.db_id as number, listToken: init.body.list.id as string };
}
type Shopper = Awaited<ReturnType<typeof shopper>>;

const hostedSave = (s: Shopper, product: Record<string, unknown>) =>
  api.post("/hosted/save", { token: s.accessToken, body: { wishlistId: s.dbId, product } });

async function reads(s: Shopper) {
  const owner = (await api.get(`/hosted/lists/${s.listToken}/items`, { token: s.accessToken })).body.products[0];
  const saved = (await api.post("/hosted/saved-products", { token: s.accessToken })).body.products[0];
  await api.put(`/hosted/lists/${s.listToken}`, { token: s.accessToken, body: { share_public: true } });
  const pub = (await api.get(`/hosted/public/lists/${s.listToken}/items`)).body.products[0];
  return { owner, saved, pub };
}

describe("shared catalogue integrity", () => {
  it("a hostile save by another shopper leaves A's item unchanged on every read route, and B sees B's facts", async () => {
    const url = `https://gifts.example.com/products/secret-gift-${Date.now()}`;
    const a = await shopper();
    const b = await shopper();
    expect((await hostedSave(a, { url, title: "Garden gnome", description: "For dad", price: 2500, currency: "EUR", imageUrl: "https://gifts.example.com/gnome.jpg" })).status).toBe(200);
    const hostile = await hostedSave(b, { url, title: "HACKED", description: "pwned", price: 1, currency: "USD", imageUrl: "https://evil.example.net/x.jpg" });
    expect(hostile.status).toBe(200);

    for (const view of Object.values(await reads(a))) {
      expect(view).toMatchObject({ title: "Garden gnome", description: "For dad", price_minor: 2500, currency: "EUR" });
      expect(JSON.stringify(view)).not.toContain("evil.example.net");
    }
    for (const view of Object.values(await reads(b))) {
      expect(view).toMatchObject({ title: "HACKED", price_minor: 1, currency: "USD" });
    }
  });

  it("a widget on the product's own domain speaks for it: the catalogue and its price history follow, per market", async () => {
    const origin = `http://127.0.0.1:${pagePort}`;
    const url = `${origin}/products/lamp-${Date.now()}`;
    const partner = await p.partner("growth");
    const key = await p.key(partner.id);
    const init = await api.post("/widget/init", { headers: { authorization: `Bearer ${key.key}` }, body: { origin } });
    const a = await shopper();
    const b = await shopper();
    const widgetSave = (s: Shopper, product: Record<string, unknown>) =>
      api.post("/widget/save", { token: s.accessToken, headers: { "x-widget-token": init.body.token, origin }, body: { wishlistId: s.dbId, product } });

    const hosted = await hostedSave(a, { url, title: "My lamp note", price: 999, currency: "EUR", marketCode: "de-DE" });
    const de = await widgetSave(b, { url, title: "Leuchte", description: "Messing", price: 4900, currency: "EUR", marketCode: "de-DE" });
    const en = await widgetSave(b, { url, title: "Lamp", price: 5900, currency: "USD", marketCode: "en-US" });
    expect([hosted.status, de.status, en.status]).toEqual([200, 200, 200]);

    const history = await sql<{ priceMinor: number; market: string }>(
      server.databaseUrl,
      `SELECT "priceMinor", market FROM "PricePoint" WHERE "productId" = ? ORDER BY id`,
      [de.body.product_id],
    );
    expect(history.map((h) => [Number(h.priceMinor), h.market])).toEqual([[4900, "de-DE"], [5900, "en-US"]]);
    const itemsOf = async (s: Shopper, query = "") =>
      (await api.get(`/hosted/lists/${s.listToken}/items${query}`, { token: s.accessToken })).body.products[0];
    // B's item follows the catalogue per market; A's own note stays A's.
    expect(await itemsOf(b, "?market=de-DE")).toMatchObject({ title: "Leuchte", description: "Messing", price_minor: 4900 });
    expect(await itemsOf(b, "?market=en-US")).toMatchObject({ title: "Lamp", price_minor: 5900, currency: "USD" });
    expect(await itemsOf(a, "?market=de-DE")).toMatchObject({ title: "My lamp note", price_minor: 999 });
  });

  it("a price point is written only when the market's price (amount or currency) changes", async () => {
    const origin = `http://127.0.0.1:${pagePort}`;
    const url = `${origin}/products/kettle-${Date.now()}`;
    const partner = await p.partner("growth");
    const key = await p.key(partner.id);
    const init = await api.post("/widget/init", { headers: { authorization: `Bearer ${key.key}` }, body: { origin } });
    const a = await shopper();
    const b = await shopper();
    const widgetSave = (s: Shopper, price: number, currency: string) =>
      api.post("/widget/save", {
        token: s.accessToken,
        headers: { "x-widget-token": init.body.token, origin },
        body: { wishlistId: s.dbId, product: { url, title: "Kettle", price, currency, marketCode: "de-DE" } },
      });
    const history = async (productId: number) =>
      (
        await sql<{ priceMinor: number; currency: string }>(
          server.databaseUrl,
          `SELECT "priceMinor", currency FROM "PricePoint" WHERE "productId" = ? ORDER BY id`,
          [productId],
        )
      ).map((h) => `${Number(h.priceMinor)} ${h.currency}`);

    const first = await widgetSave(a, 3900, "EUR");
    expect(first.status, first.text).toBe(200);
    const productId = first.body.product_id as number;
    // The same price again, from the same shopper and from another one: no new point.
    expect((await widgetSave(a, 3900, "EUR")).status).toBe(200);
    expect((await widgetSave(b, 3900, "EUR")).status).toBe(200);
    expect(await history(productId)).toEqual(["3900 EUR"]);
    // A new amount, then a new currency with the same amount: one point each.
    expect((await widgetSave(b, 3500, "EUR")).status).toBe(200);
    expect((await widgetSave(a, 3500, "CHF")).status).toBe(200);
    expect((await widgetSave(b, 3500, "CHF")).status).toBe(200);
    expect(await history(productId)).toEqual(["3900 EUR", "3500 EUR", "3500 CHF"]);
  });

  it("a widget on another domain is a client like any other: its facts stay on its item", async () => {
    const url = `https://brand.example.com/products/vase-${Date.now()}`;
    const partner = await p.partner("growth");
    const key = await p.key(partner.id);
    const origin = "https://reseller.example.net";
    const init = await api.post("/widget/init", { headers: { authorization: `Bearer ${key.key}` }, body: { origin } });
    const s = await shopper();
    const res = await api.post("/widget/save", {
      token: s.accessToken,
      headers: { "x-widget-token": init.body.token, origin },
      body: { wishlistId: s.dbId, product: { url, title: "Cheap vase", price: 100, currency: "EUR" } },
    });
    expect(res.status).toBe(200);
    expect(await sql(server.databaseUrl, `SELECT title FROM "ProductLocalization" WHERE "productId" = ?`, [res.body.product_id])).toEqual([]);
    expect(await sql(server.databaseUrl, `SELECT id FROM "PricePoint" WHERE "productId" = ?`, [res.body.product_id])).toEqual([]);
  });

  it("a URL-only save reads the page itself, which is entitled: the catalogue gets the page's title", async () => {
    const url = `http://127.0.0.1:${pagePort}/products/scraped-${Date.now()}`;
    const s = await shopper();
    const res = await hostedSave(s, { url });
    expect(res.status).toBe(200);
    const rows = await sql<{ title: string }>(server.databaseUrl, `SELECT title FROM "ProductLocalization" WHERE "productId" = ?`, [res.body.product_id]);
    expect(rows.map((r) => r.title)).toEqual(["Real Gift"]);
  });
});
