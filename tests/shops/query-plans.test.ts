// The shop routes and sitemaps reach their rows through indexes, never by
// reading a whole table (trending in particular: a shop's recent saves, not
// every ListItem). Checked on the statements the built server really runs
// (LOG_LEVEL=debug logs each one) with the database's own EXPLAIN, as
// tests/lists/query-plans.test.ts does for the list reads.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api } from "../support/api.ts";
import { explain, statementsDuring } from "../support/explain.ts";
import { provisioner } from "../support/provision.ts";
import { startServer, type TestServer } from "../support/server.ts";

let server: TestServer;
let api: Api;
let handle: string;
let userToken: string;

beforeAll(async () => {
  server = await startServer({ LOG_LEVEL: "debug", OUTBOX_POLL_MS: "600000", REVOCATION_POLL_MS: "600000" });
  api = await apiFor(server);
  await provisioner(server);
  const { db } = await import("~/db.server");
  const shops = await import("~/domains/shops/shops.server");
  const partners = await import("~/domains/partners/partners.server");
  const partner = await partners.createPartner({ name: "Plans", email: "plans@store.example" });
  const shop = await shops.createPlatformShop(partner.id, { domain: "plans.myshopify.com", name: "Plans", published: true });
  handle = shop.handle!;
  const user = await api.anonymousUser();
  const list = await db.wishlist.create({ data: { shareToken: randomBytes(12).toString("hex"), ownerId: user.userId, name: "L", sharePublic: true } });
  for (let n = 0; n < 3; n++) {
    const product = await db.product.create({
      data: {
        canonicalUrl: `https://plans.example.com/p/${n}`,
        sourceShopId: shop.id,
        productType: "Mugs",
        localizations: { create: [{ market: "", title: `P ${n}` }] },
      },
    });
    await db.listItem.create({ data: { wishlistId: list.id, productId: product.id } });
  }
  await db.shopList.create({ data: { shopId: shop.id, slug: "gifts", title: "Gifts", featured: true } });
  await api.post(`/shops/${handle}/follow`, { token: user.accessToken });
  userToken = user.accessToken;
});
afterAll(async () => {
  await server.stop();
});

const statementsOf = (path: string, opts: { token?: string; site?: boolean } = {}) =>
  statementsDuring(server, async () => {
    const res = opts.site ? await fetch(server.url + path) : await api.get(path, { token: opts.token });
    expect(res.status, path).toBe(200);
    if (opts.site) await (res as Response).text();
  });

const TABLES = ["Product", "ProductLocalization", "ListItem", "PlatformShop", "ShopList", "ShopListProduct", "ShopFollow", "Wishlist"];

async function expectByIndex(statements: string[]) {
  const named = new RegExp(`[\`"](${TABLES.join("|")})[\`"]`);
  const onTables = statements.filter((s) => named.test(s));
  expect(onTables.length, statements.join("\n")).toBeGreaterThan(0);
  for (const statement of onTables) {
    const plan = await explain(server.databaseUrl, statement);
    expect(plan.fullScans, `${statement}\n→\n${plan.text}`).toEqual([]);
  }
}

describe("shop routes read by index", () => {
  it.each([
    "",
    "/products",
    "/products?category=Mugs",
    "/categories",
    "/trending",
    "/lists",
    "/featured-lists",
    "/lists/gifts/products",
    "/analytics/followers",
  ])("GET /shops/{handle}%s", async (suffix) => {
    await expectByIndex(await statementsOf(`/shops/${handle}${suffix}`));
  });

  it("GET /shops/@me/following", async () => {
    await expectByIndex(await statementsOf("/shops/@me/following", { token: userToken }));
  });

  it("the sitemaps", async () => {
    for (const path of ["/sitemap-pages.xml", "/sitemap-shops.xml", "/sitemap-shops.json"]) {
      await expectByIndex(await statementsOf(path, { site: true }));
    }
  });
});
