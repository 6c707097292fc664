// Shop customers (app/domains/shop-customers): a customer Shopify names is
// linked to one shopper account per shop, created on first sight, the same
// under concurrent first requests; the same customer id at two shops is two
// customers; a link to a deleted account is replaced.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { freshDatabaseUrl } from "../support/database.ts";

let customers: typeof import("~/domains/shop-customers/shop-customers.server");
let db: Awaited<typeof import("~/db.server")>["db"];
let shopA: number;
let shopB: number;

const customerId = () => String(1_000_000_000_000 + randomBytes(4).readUInt32BE());

beforeAll(async () => {
  process.env.DATABASE_URL = await freshDatabaseUrl();
  ({ db } = await import("~/db.server"));
  customers = await import("~/domains/shop-customers/shop-customers.server");
  const { createPartner } = await import("~/domains/partners/partners.server");
  const { createPlatformShop } = await import("~/domains/shops/shops.server");
  const shop = async () => {
    const partner = await createPartner({ name: "Customers", email: "owner@shop.example" });
    return (await createPlatformShop(partner.id, { domain: `c${randomBytes(4).toString("hex")}.myshopify.com` })).id;
  };
  shopA = await shop();
  shopB = await shop();
});

describe("shopperOfCustomer", () => {
  it("creates the shopper account on first sight and finds it afterwards", async () => {
    const id = customerId();
    const first = await customers.shopperOfCustomer(shopA, id);
    expect(first.created).toBe(true);
    const again = await customers.shopperOfCustomer(shopA, Number(id));
    expect(again).toEqual({ userId: first.userId, created: false, isAnonymous: true });
    const user = await db.user.findUnique({ where: { id: first.userId } });
    // No password or e-mail of its own: only the shop's signed requests reach it.
    expect(user).toMatchObject({ isAnonymous: true, email: null, passwordHash: null });
    expect(await customers.customerOfShopper(shopA, first.userId)).toBe(id);
    expect(await customers.customerOfShopper(shopB, first.userId)).toBeNull();
  });

  it("links one account when many first requests arrive at once", async () => {
    const id = customerId();
    const results = await Promise.all(Array.from({ length: 8 }, () => customers.shopperOfCustomer(shopA, id)));
    expect(new Set(results.map((r) => r.userId)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await db.shopCustomer.count({ where: { shopId: shopA, customerId: id } })).toBe(1);
    // The losers' accounts were never kept: the account exists only with its link.
    expect(await db.user.count({ where: { shopCustomers: { none: {} }, isAnonymous: true, createdAt: { gte: new Date(Date.now() - 60_000) } } })).toBe(0);
  });

  it("keeps two shops' customers with the same id apart", async () => {
    const id = customerId();
    const a = await customers.shopperOfCustomer(shopA, id);
    const b = await customers.shopperOfCustomer(shopB, id);
    expect(a.userId).not.toBe(b.userId);
    expect(await customers.customerOfShopper(shopA, a.userId)).toBe(id);
    expect(await customers.customerOfShopper(shopA, b.userId)).toBeNull();
    expect(await customers.customerOfShopper(shopB, b.userId)).toBe(id);
  });

  it("replaces a link to a deleted account with a fresh account", async () => {
    const id = customerId();
    const before = await customers.shopperOfCustomer(shopA, id);
    await db.user.update({ where: { id: before.userId }, data: { deletedAt: new Date() } });
    const after = await customers.shopperOfCustomer(shopA, id);
    expect(after.created).toBe(true);
    expect(after.userId).not.toBe(before.userId);
  });

  it("refuses what is not a Shopify customer id", async () => {
    for (const bad of ["", "0", "-5", "12a", "1".repeat(21), "1 OR 1=1"]) {
      await expect(customers.shopperOfCustomer(shopA, bad)).rejects.toMatchObject({ status: 400, code: "invalid_customer" });
    }
  });

  it("reports and forgets a customer's link (compliance)", async () => {
    const id = customerId();
    const { userId } = await customers.shopperOfCustomer(shopA, id);
    expect(await customers.customerLink(shopA, id)).toMatchObject({ customerId: id, userId });
    expect(await customers.customerLink(shopB, id)).toBeNull();
    expect(await customers.forgetCustomer(shopA, id)).toBe(1);
    expect(await customers.customerLink(shopA, id)).toBeNull();
    expect(await customers.forgetCustomer(shopA, "not an id")).toBe(0);
  });
});
