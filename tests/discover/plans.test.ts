// Discover and store reads reach their rows through indexes (the plans of
// the statements the built server really runs, LOG_LEVEL=debug): trending and
// curated lists read a range of ListItem(addedAt, …), never the whole table;
// seasonal reads an occasion's public lists; store routes read one domain.
// The title search reads every title by design (a contains-match), the
// all-stores listing aggregates the whole index and the set of known markets
// (SELECT DISTINCT) reads every localization; none of those is checked here
// (the last two are cached for DISCOVER_CACHE_SECONDS in a running service).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api } from "../support/api.ts";
import { explain, statementsDuring } from "../support/explain.ts";
import { startInProcess, type InProcessServer } from "../support/in-process.ts";
import { sql } from "../support/sql.ts";

let server: InProcessServer;
let api: Api;
let productId: number;
const domain = "plans-store.example";

beforeAll(async () => {
  server = await startInProcess({
    LOG_LEVEL: "debug",
    DISCOVER_CACHE_SECONDS: "0",
    OUTBOX_POLL_MS: "600000",
    REVOCATION_POLL_MS: "600000",
  });
  api = await apiFor(server);
  const user = await api.anonymousUser();
  const list = await api.post("/hosted/me/lists", { token: user.accessToken, body: { name: "Plans" } });
  await api.put(`/hosted/lists/${list.body.token}`, { token: user.accessToken, body: { share_public: true, occasion_slug: "christmas" } });
  const saved = await api.post("/hosted/save", {
    token: user.accessToken,
    body: { wishlistId: list.body.list.db_id, product: { url: `https://${domain}/p/1`, title: "x" } },
  });
  productId = saved.body.product_id;
  const now = new Date().toISOString();
  await sql(server.databaseUrl, `INSERT INTO "ProductLocalization" ("productId", "market", "title", "description", "updatedAt") VALUES (?, 'de-DE', 'Plan', '', ?)`, [
    productId,
    server.databaseUrl.startsWith("file:") ? now.replace("Z", "+00:00") : now.replace("Z", ""),
  ]);
  await sql(server.databaseUrl, `UPDATE "Product" SET "sourceDomain" = ?, "productType" = 'Toys' WHERE "id" = ?`, [domain, productId]);
});

afterAll(async () => {
  await server.stop();
});

const statementsOf = (path: string) =>
  statementsDuring(server, async () => {
    const res = await api.get(path);
    expect(res.status, res.text).toBe(200);
  });

async function expectByIndex(path: string, tables: string[]) {
  const statements = await statementsOf(path);
  const named = new RegExp(`[\`"](${tables.join("|")})[\`"]`);
  const onTables = statements.filter((s) => named.test(s) && !s.includes('SELECT DISTINCT "market"'));
  expect(onTables.length, statements.join("\n")).toBeGreaterThan(0);
  for (const statement of onTables) {
    const plan = await explain(server.databaseUrl, statement);
    expect(plan.fullScans, `${path}\n${statement}\n→\n${plan.text}`).toEqual([]);
  }
}

describe("query plans", () => {
  it.each([
    ["/discover/trending", ["ListItem", "Product", "ProductLocalization"]],
    ["/discover/trending?market=de-DE&days=30", ["ListItem", "Product", "ProductLocalization"]],
    ["/discover/curated-lists", ["ListItem", "Wishlist"]],
    ["/discover/curated-lists?occasion=christmas", ["ListItem", "Wishlist"]],
    ["/discover/seasonal?date=2026-12-01&days=30", ["ListItem", "Wishlist", "Product"]],
  ])("%s", async (path, tables) => {
    await expectByIndex(path, tables);
  });

  it("product detail and price history", async () => {
    await expectByIndex(`/discover/products/${productId}`, ["Product", "ProductLocalization", "ListItem"]);
    await expectByIndex(`/discover/products/${productId}/price-history`, ["PricePoint", "Product"]);
  });

  it("a store and its products", async () => {
    await expectByIndex(`/stores/${domain}`, ["Product"]);
    await expectByIndex(`/stores/${domain}/products?category=Toys`, ["Product"]);
  });
});
