// One shopper's save never rewrites another shopper's items, nor a shop's
// catalogue. Facts a client sends stay on its own item, whatever the channel
// (a widget's origin is what the client said, not proof); the shared
// catalogue changes only from the page's own scrape, the shop's platform and
// the merchant.
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api } from "../support/api.ts";
import { freePort } from "../support/server.ts";
import { startInProcess, type InProcessServer } from "../support/in-process.ts";
import { provisioner } from "../support/provision.ts";
import { sql } from "../support/sql.ts";

let server: InProcessServer;
let api: Api;
let page: Server;
let pagePort: number;
let p: Awaited<ReturnType<typeof provisioner>>;
/** What the product page says its price is. */
let pagePrice = { amount: "39.00", currency: "EUR" };

beforeAll(async () => {
  pagePort = await freePort();
  // The product's own page: what a scrape reads.
  page = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    const offer = { "@type": "Offer", price: pagePrice.amount, priceCurrency: pagePrice.currency };
    res.end(
      `<html><head><title>Real Gift</title><meta property="og:title" content="Real Gift">` +
        `<script type="application/ld+json">${JSON.stringify({ "@type": "Product", name: "Real Gift", offers: offer })}</script></head><body></body></html>`,
    );
  });
  await new Promise<void>((r) => page.listen(pagePort, "127.0.0.1", r));
  server = await startInProcess({ FETCH_TEST_ALLOW_HOSTS: `127.0.0.1:${pagePort}` });
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

  // The reproduction of the review: the merchant's own public key (it is on the storefront) and the storefront's
  // own origin, claimed by a script, used to rewrite the shop's products and add products to its shop page.
  it.each(["live", "test"] as const)(
    "with the merchant's %s key and its storefront's origin, an anonymous account rewrites no catalogue fact and adds nothing to the shop's page",
    async (environment) => {
      const { db } = await import("~/db.server");
      const { createPlatformShop } = await import("~/domains/shops/shops.server");
      const tag = `${environment}-${Date.now().toString(36)}`;
      const partner = await p.partner("free");
      const shop = await createPlatformShop(partner.id, { domain: `tea-${tag}.myshopify.com`, name: `Tea ${tag}`, published: true });
      const origin = `https://${shop.domain}`;
      const key = await p.key(partner.id, { env: environment, domains: environment === "live" ? [shop.domain] : undefined });
      // The shop's product, as its platform put it into the catalogue.
      const real = await db.product.create({
        data: {
          canonicalUrl: `${origin}/products/green-tea`,
          sourcePartnerId: partner.id,
          sourceShopId: shop.id,
          sourceDomain: shop.domain,
          available: true,
          localizations: { create: [{ market: "", title: "Green tea", description: "Sencha", priceMinor: 1200, currency: "EUR" }] },
        },
      });
      const a = await shopper();
      expect((await hostedSave(a, { url: real.canonicalUrl })).status).toBe(200);

      // The attack: any script can claim the storefront's origin at init.
      const attacker = await shopper();
      const init = await api.post("/widget/init", { headers: { authorization: `Bearer ${key.key}`, origin }, body: { origin } });
      expect(init.status, init.text).toBe(200);
      const widgetSave = (product: Record<string, unknown>) =>
        api.post("/widget/save", { token: attacker.accessToken, headers: { "x-widget-token": init.body.token, origin }, body: { wishlistId: attacker.dbId, product } });
      const rewrite = await widgetSave({ url: real.canonicalUrl, title: "HACKED", description: "pwned", price: 1, currency: "EUR", imageUrl: "https://evil.example.net/x.jpg" });
      const fake = await widgetSave({ url: `${origin}/products/fake-tea`, title: "Fake tea", description: "Green fake", price: 1, currency: "EUR" });
      expect([rewrite.status, fake.status]).toEqual([200, 200]);

      // Every list holding the product still shows the shop's facts.
      for (const view of Object.values(await reads(a))) {
        expect(view).toMatchObject({ title: "Green tea", description: "Sencha", price_minor: 1200, currency: "EUR" });
        expect(JSON.stringify(view)).not.toContain("evil.example.net");
      }
      const catalogue = await sql<{ title: string; priceMinor: number }>(
        server.databaseUrl,
        `SELECT title, "priceMinor" FROM "ProductLocalization" WHERE "productId" = ?`,
        [real.id],
      );
      expect(catalogue.map((l) => [l.title, Number(l.priceMinor)])).toEqual([["Green tea", 1200]]);
      expect(await sql(server.databaseUrl, `SELECT id FROM "PricePoint" WHERE "productId" IN (?, ?)`, [real.id, fake.body.product_id])).toEqual([]);

      // The shop's page lists its own product only, with its own facts.
      const products = await api.get(`/shops/${shop.handle}/products`);
      expect(products.status).toBe(200);
      expect(products.body.products.map((x: { id: number; title: string; price_minor: number }) => [x.id, x.title, x.price_minor])).toEqual([
        [real.id, "Green tea", 1200],
      ]);
      expect((await api.get(`/shops/${shop.handle}/search?q=fake`)).body.products).toEqual([]);
      // The fake product is a bare URL: no source, no catalogue facts.
      const [fakeRow] = await sql<{ sourcePartnerId: number | null; sourceShopId: number | null; sourceDomain: string | null }>(
        server.databaseUrl,
        `SELECT "sourcePartnerId", "sourceShopId", "sourceDomain" FROM "Product" WHERE id = ?`,
        [fake.body.product_id],
      );
      expect(fakeRow).toEqual({ sourcePartnerId: null, sourceShopId: null, sourceDomain: null });
      expect(await sql(server.databaseUrl, `SELECT title FROM "ProductLocalization" WHERE "productId" = ?`, [fake.body.product_id])).toEqual([]);

      // What the attacker sent stays on the attacker's own items.
      const own = (await api.get(`/hosted/lists/${attacker.listToken}/items`, { token: attacker.accessToken })).body.products;
      expect(own.map((x: { title: string; price_minor: number }) => [x.title, x.price_minor]).sort()).toEqual([
        ["Fake tea", 1],
        ["HACKED", 1],
      ]);
    },
  );

  it("the page's own scrape speaks for the product: a price point only when the market's price (amount or currency) changes", async () => {
    const url = `http://127.0.0.1:${pagePort}/products/kettle-${Date.now()}`;
    const s = await shopper();
    pagePrice = { amount: "39.00", currency: "EUR" };
    // URL only: the save reads the page, which is entitled.
    const first = await hostedSave(s, { url, marketCode: "de-DE" });
    expect(first.status, first.text).toBe(200);
    const productId = first.body.product_id as number;
    const rescrape = async () => {
      const res = await api.post(`/hosted/lists/${s.listToken}/items/${first.body.item_id}/rescrape`, { token: s.accessToken });
      expect(res.status, res.text).toBe(200);
    };
    const history = async () =>
      (
        await sql<{ priceMinor: number; currency: string; market: string }>(
          server.databaseUrl,
          `SELECT "priceMinor", currency, market FROM "PricePoint" WHERE "productId" = ? ORDER BY id`,
          [productId],
        )
      ).map((h) => `${Number(h.priceMinor)} ${h.currency} ${h.market}`);

    // The same price again: no new point; a client's price changes nothing either.
    await rescrape();
    expect((await hostedSave(await shopper(), { url, title: "Kettle", price: 100, currency: "EUR", marketCode: "de-DE" })).status).toBe(200);
    expect(await history()).toEqual(["3900 EUR de-DE"]);
    // A new amount, then a new currency with the same amount: one point each.
    pagePrice = { amount: "35.00", currency: "EUR" };
    await rescrape();
    pagePrice = { amount: "35.00", currency: "CHF" };
    await rescrape();
    await rescrape();
    expect(await history()).toEqual(["3900 EUR de-DE", "3500 EUR de-DE", "3500 CHF de-DE"]);
    pagePrice = { amount: "39.00", currency: "EUR" };
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
