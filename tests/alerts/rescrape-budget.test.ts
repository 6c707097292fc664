// The scheduled re-read's budget is shared by shopper (docs/alerts.md "Scraped
// products"): a shopper has at most RESCRAPE_PRODUCTS_PER_SHOPPER products
// enrolled, and a tick's reads go round-robin by shopper, so one shopper who
// saves many pages neither takes every read nor delays everyone else's. The
// job's own functions on a fresh database (the reads themselves, over HTTP
// from a stand-in shop, are tests/alerts/rescrape-alerts.test.ts').
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabaseUrl } from "../support/database.ts";

const CAP = 4;
let db: typeof import("~/db.server").db;
let job: typeof import("~/domains/alerts/rescrape-alerts.server");

beforeAll(async () => {
  Object.assign(process.env, { DATABASE_URL: await freshDatabaseUrl(), RESCRAPE_PRODUCTS_PER_SHOPPER: String(CAP), LOG_LEVEL: "error" });
  ({ db } = await import("~/db.server"));
  job = await import("~/domains/alerts/rescrape-alerts.server");
});
afterAll(async () => {
  await db?.$disconnect();
});

const unique = () => Math.random().toString(36).slice(2, 10);

/** A shopper with confirmed alerts and a list. */
async function shopper() {
  const user = await db.user.create({ data: { id: `u_${unique()}`, email: `${unique()}@shopper.test`, isAnonymous: false } });
  await db.alertConsent.create({ data: { userId: user.id, email: user.email!, lang: "en", confirmedAt: new Date() } });
  const list = await db.wishlist.create({ data: { shareToken: `t_${unique()}${unique()}`, ownerId: user.id, name: "Mine" } });
  return { id: user.id, listId: list.id };
}

/** `count` scraped products (pages of no installed shop) saved by `s`. */
async function saves(s: { id: string; listId: number }, count: number, host = `${unique()}.example`) {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const product = await db.product.create({ data: { canonicalUrl: `https://${host}/p/${unique()}` } });
    await db.listItem.create({ data: { wishlistId: s.listId, productId: product.id, addedByUserId: s.id } });
    ids.push(product.id);
  }
  return ids;
}

const enrolled = async (ids: number[]) => (await db.productRescrape.findMany({ where: { productId: { in: ids } } })).map((r) => r.productId).sort((a, b) => a - b);

describe("the re-read budget by shopper", () => {
  it("enrols at most RESCRAPE_PRODUCTS_PER_SHOPPER products per shopper; a product another shopper saved too is enrolled for them", async () => {
    const flooder = await shopper();
    const other = await shopper();
    const many = await saves(flooder, CAP + 6);
    const few = await saves(other, 2);
    const now = new Date();
    await job.enrol(now);
    await job.enrol(now); // a second tick enrols no more of them
    expect(await enrolled(many)).toHaveLength(CAP);
    expect(await enrolled(few)).toEqual([...few].sort((a, b) => a - b));
    // One of the flooder's waiting products saved by the other shopper too: enrolled, on the other's share.
    const left = (await db.product.findMany({ where: { id: { in: many }, rescrape: null }, select: { id: true } })).map((p) => p.id);
    expect(left).toHaveLength(6);
    await db.listItem.create({ data: { wishlistId: other.listId, productId: left[0]!, addedByUserId: other.id } });
    await job.enrol(new Date());
    expect(await enrolled(many)).toHaveLength(CAP + 1);
    expect(await enrolled(many)).toContain(left[0]);
  });

  it("shares a tick's reads round-robin by shopper, whoever's products are most overdue", async () => {
    const flooder = await shopper();
    const a = await shopper();
    const b = await shopper();
    const floods = await saves(flooder, CAP);
    const ofA = await saves(a, 2);
    const ofB = await saves(b, 1);
    const now = new Date();
    await job.enrol(now);
    // Only this test's products are due, the flooder's the most overdue of all.
    const ours = [...floods, ...ofA, ...ofB];
    await db.productRescrape.updateMany({ where: { productId: { notIn: ours } }, data: { dueAt: new Date(now.getTime() + 86_400_000) } });
    await db.productRescrape.updateMany({ where: { productId: { in: floods } }, data: { dueAt: new Date(now.getTime() - 3_600_000) } });
    const claimed = await job.claimDue(new Date(now.getTime() + 1000), 4, `test-${unique()}`);
    const whose = (id: number) => (floods.includes(id) ? "flooder" : ofA.includes(id) ? "a" : ofB.includes(id) ? "b" : "someone else");
    // One each first (the flooder's most overdue product leading), then the next turn: the flooder's and a's second.
    expect(claimed.map((c) => whose(c.productId))).toEqual(["flooder", "a", "b", "flooder"]);
  });

  it("round-robin keeps each shopper's own order", () => {
    const rows = ["x1", "x2", "x3", "y1", "z1", "y2"];
    expect(job.roundRobin(rows, (r) => r[0]!)).toEqual(["x1", "y1", "z1", "x2", "y2", "x3"]);
  });
});
