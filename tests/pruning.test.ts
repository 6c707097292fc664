// The background prune job: old request-counter minute windows and old usage
// dedup keys are deleted in batches through an index range (never a scan of
// the table), and what is still needed stays. Runs against the built server
// with a short PRUNE_INTERVAL_MS; the plans come from the database's EXPLAIN
// of the statements the server logged.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabaseUrl } from "./support/database.ts";
import { explain, loggedStatements } from "./support/explain.ts";
import { startServer, type TestServer } from "./support/server.ts";
import { sql } from "./support/sql.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const minute = (msAgo: number) => new Date(Date.now() - msAgo).toISOString().slice(0, 16);
const timestamp = (msAgo: number) => new Date(Date.now() - msAgo).toISOString().slice(0, 19).replace("T", " ");
const thisMonth = new Date().toISOString().slice(0, 7);
const current = minute(0);
const halfAnHourAgo = minute(30 * 60_000);

let server: TestServer;
let databaseUrl: string;

async function until(check: () => Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not reached in time");
    await new Promise((r) => setTimeout(r, 100));
  }
}

const counterWindows = async () =>
  (await sql<{ apiKeyId: number; window: string }>(databaseUrl, `SELECT "apiKeyId", "window" FROM "ApiKeyRequestCounter" ORDER BY "apiKeyId", "window"`)).map(
    (r) => `${r.apiKeyId}|${r.window}`,
  );
const dedupKeys = async () => (await sql<{ dedupKey: string }>(databaseUrl, `SELECT "dedupKey" FROM "UsageDedup" ORDER BY "dedupKey"`)).map((r) => r.dedupKey);

beforeAll(async () => {
  databaseUrl = await freshDatabaseUrl();
  // 1,200 minute windows of 4 keys from 2 to 7 hours ago: more than two batches.
  const old: string[] = [];
  for (let key = 1; key <= 4; key++) for (let m = 0; m < 300; m++) old.push(`(${key}, '${minute(2 * HOUR + m * 60_000)}', 1)`);
  await sql(databaseUrl, `INSERT INTO "ApiKeyRequestCounter" ("apiKeyId", "window", "count") VALUES ${old.join(", ")}`);
  await sql(databaseUrl, `INSERT INTO "ApiKeyRequestCounter" ("apiKeyId", "window", "count") VALUES (1, '2025-01', 7), (1, ?, 8), (1, ?, 1), (2, ?, 1)`, [
    thisMonth,
    current,
    halfAnHourAgo,
  ]);
  // 1,100 dedup keys from three days ago; younger ones (a share of yesterday, a view of now) stay.
  const keys: string[] = [];
  for (let i = 0; i < 1100; i++) keys.push(`('view:1:old${i}:1', 1, '${timestamp(3 * DAY + i * 1000)}')`);
  keys.push(`('share:1:yesterday', 1, '${timestamp(DAY + HOUR)}')`, `('view:1:now:1', 1, '${timestamp(0)}')`);
  await sql(databaseUrl, `INSERT INTO "UsageDedup" ("dedupKey", "partnerId", "createdAt") VALUES ${keys.join(", ")}`);

  server = await startServer({
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: "debug",
    PRUNE_INTERVAL_MS: "300",
    OUTBOX_POLL_MS: "600000",
    REVOCATION_POLL_MS: "600000",
  });
});
afterAll(async () => {
  await server?.stop();
});

async function expectIndexedBatches(table: string, rows: number) {
  const batches = () => loggedStatements(server.output()).filter((s) => s.trim().startsWith(`DELETE FROM "${table}"`));
  // The server writes its log without waiting on the reader: the lines may arrive a moment after the rows are gone.
  await until(async () => batches().length >= Math.ceil(rows / 500));
  const deletes = [...new Set(batches())];
  expect(deletes).toHaveLength(1); // one statement, run batch after batch
  expect(deletes[0]).toMatch(/LIMIT/);
  const plan = await explain(databaseUrl, deletes[0]!);
  expect(plan.fullScans, `${deletes[0]}\n→\n${plan.text}`).toEqual([]);
  expect(plan.text).toMatch(table === "UsageDedup" ? /UsageDedup_createdAt_idx/ : /ApiKeyRequestCounter_window_idx/);
}

describe("pruning", () => {
  it("deletes request-counter minute windows older than an hour, keeps month windows and recent minutes", async () => {
    await until(async () => (await counterWindows()).length === 4);
    expect(await counterWindows()).toEqual([`1|2025-01`, `1|${current}`, `1|${thisMonth}`, `2|${halfAnHourAgo}`].sort());
    await expectIndexedBatches("ApiKeyRequestCounter", 1200);
  });

  it("deletes usage dedup keys older than two days, keeps younger ones", async () => {
    await until(async () => (await dedupKeys()).length === 2);
    expect(await dedupKeys()).toEqual(["share:1:yesterday", "view:1:now:1"]);
    await expectIndexedBatches("UsageDedup", 1100);
  });
});
