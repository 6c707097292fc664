// The background prune job: old request-counter minute windows, old usage
// dedup keys, old e-mail quota counts and account links, and creator-media uploads nobody finalised within a day (with
// their stored bytes) are deleted in batches through an index range (never a
// scan of the table), and what is still needed stays. Runs against the built server
// with a short PRUNE_INTERVAL_MS; the plans come from the database's EXPLAIN
// of the statements the server logged.
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor } from "../support/api.ts";
import { freshDatabaseUrl } from "../support/database.ts";
import { explain, loggedStatements } from "../support/explain.ts";
import { provisioner } from "../support/provision.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { sql } from "../support/sql.ts";
import { until } from "../support/wait.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const minute = (msAgo: number) => new Date(Date.now() - msAgo).toISOString().slice(0, 16);
const timestamp = (msAgo: number) => new Date(Date.now() - msAgo).toISOString().slice(0, 19).replace("T", " ");
const thisMonth = new Date().toISOString().slice(0, 7);
const current = minute(0);
const halfAnHourAgo = minute(30 * 60_000);

let server: TestServer;
let databaseUrl: string;
let dataDir: string;

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
  // The Free plan's monthly shares (`month:…`) stay for the month: one from three days ago stays, one from 33 days ago goes.
  keys.push(`('month:saveaddr:1:203.0.113.9:recent', 1, '${timestamp(3 * DAY)}')`, `('month:saveaddr:1:203.0.113.9:old', 1, '${timestamp(33 * DAY)}')`);
  await sql(databaseUrl, `INSERT INTO "UsageDedup" ("dedupKey", "partnerId", "createdAt") VALUES ${keys.join(", ")}`);

  // E-mail quota counts: the day before yesterday goes, yesterday's and today's stay.
  const day = (msAgo: number) => new Date(Date.now() - msAgo).toISOString().slice(0, 10);
  await sql(databaseUrl, `INSERT INTO "EmailQuota" ("key", "day", "count") VALUES ('to:old', ?, 3), ('to:yesterday', ?, 1), ('ip:today', ?, 2)`, [day(2 * DAY), day(DAY), day(0)]);
  // One-time account links: one expired two days ago goes, one expired an hour ago and a live one stay.
  const at = (msAgo: number) => (databaseUrl.startsWith("file:") ? new Date(Date.now() - msAgo).toISOString().replace("Z", "+00:00") : new Date(Date.now() - msAgo));
  await sql(databaseUrl, `INSERT INTO "User" ("id", "email", "isAnonymous", "createdAt", "updatedAt") VALUES ('prune-user', 'prune@example.test', ?, ?, ?)`, [
    databaseUrl.startsWith("file:") ? 0 : false,
    at(0),
    at(0),
  ]);
  for (const [hash, msAgo] of [["old-link", 2 * DAY], ["recent-link", HOUR], ["live-link", -HOUR]] as const) {
    await sql(databaseUrl, `INSERT INTO "AccountToken" ("tokenHash", "userId", "kind", "expiresAt", "createdAt") VALUES (?, 'prune-user', 'recovery', ?, ?)`, [hash, at(msAgo), at(0)]);
  }

  dataDir = mkdtempSync(path.join(tmpdir(), "prune-media-"));
  server = await startServer({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    MEDIA_CHUNK_BYTES: "1024",
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
  await until("batches logged", () => batches().length >= Math.ceil(rows / 500), Boolean, { timeoutMs: 20_000 });
  const deletes = [...new Set(batches())];
  expect(deletes).toHaveLength(1); // one statement, run batch after batch
  expect(deletes[0]).toMatch(/LIMIT/);
  const plan = await explain(databaseUrl, deletes[0]!);
  expect(plan.fullScans, `${deletes[0]}\n→\n${plan.text}`).toEqual([]);
  expect(plan.text).toMatch(table === "UsageDedup" ? /UsageDedup_createdAt_idx/ : /ApiKeyRequestCounter_window_idx/);
}

describe("pruning", () => {
  it("deletes request-counter minute windows older than an hour, keeps month windows and recent minutes", async () => {
    await until("four counter windows", async () => (await counterWindows()).length === 4, Boolean, { timeoutMs: 20_000 });
    expect(await counterWindows()).toEqual([`1|2025-01`, `1|${current}`, `1|${thisMonth}`, `2|${halfAnHourAgo}`].sort());
    await expectIndexedBatches("ApiKeyRequestCounter", 1200);
  });

  it("deletes usage dedup keys older than two days (a month's keys older than 32), keeps younger ones", async () => {
    await until("three dedupe keys", async () => (await dedupKeys()).length === 3, Boolean, { timeoutMs: 20_000 });
    expect(await dedupKeys()).toEqual(["month:saveaddr:1:203.0.113.9:recent", "share:1:yesterday", "view:1:now:1"]);
    await expectIndexedBatches("UsageDedup", 1100);
  });
});

describe("pruning the e-mail quota and account links", () => {
  it("deletes quota counts of days before yesterday and links a day past their expiry; keeps the rest", async () => {
    const keys = async () => (await sql<{ key: string }>(databaseUrl, `SELECT "key" FROM "EmailQuota" ORDER BY "key"`)).map((r) => r.key);
    await until("old quota count pruned", async () => (await keys()).length === 2, Boolean, { timeoutMs: 20_000 });
    expect(await keys()).toEqual(["ip:today", "to:yesterday"]);
    const links = async () => (await sql<{ tokenHash: string }>(databaseUrl, `SELECT "tokenHash" FROM "AccountToken" ORDER BY "tokenHash"`)).map((r) => r.tokenHash);
    await until("old link pruned", async () => (await links()).length === 2, Boolean, { timeoutMs: 20_000 });
    expect(await links()).toEqual(["live-link", "recent-link"]);
  });
});

describe("pruning creator-media uploads", () => {
  const PNG = Buffer.concat([Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"), Buffer.alloc(2048 - 16, 7)]);

  it("deletes uploads not finalised within a day with their stored bytes, keeps younger ones and one being written", async () => {
    const prov = await provisioner(server);
    const { db } = await import("~/db.server");
    const { createPersonalAccessToken } = await import("~/domains/partners/access-tokens.server");
    const api = await apiFor(server);
    const partner = await prov.partner();
    const shop = await prov.shop(partner.id);
    const token = (await createPersonalAccessToken(partner.id, { name: "prune" })).token;
    const put = async (pathname: string, body: Buffer) => {
      const res = await fetch(api.baseUrl + pathname, {
        method: "PUT",
        headers: { apikey: api.anonKey, authorization: `Bearer ${token}`, "content-type": "application/octet-stream" },
        body: new Uint8Array(body),
      });
      expect(res.status, await res.text()).toBe(200);
    };
    const start = async () => {
      const res = await api.post("/media/uploads", { token, body: { shopId: shop.id, mime: "image/png", bytes: PNG.length } });
      expect(res.status, res.text).toBe(201);
      return res.body as { uploadId: string; storagePath: string };
    };
    const shopFiles = () => (existsSync(path.join(dataDir, "media", String(shop.id))) ? readdirSync(path.join(dataDir, "media", String(shop.id))).sort() : []);
    const partFile = (storagePath: string) => `.${path.basename(storagePath)}.part`;

    // Complete but never finalised (the object is in place); half sent (a .part file); the same, fresh; old but being written now.
    const unclaimed = await start();
    await put(`/media/uploads/${unclaimed.uploadId}`, PNG);
    const half = await start();
    await put(`/media/uploads/${half.uploadId}/chunks/0`, PNG.subarray(0, 1024));
    const fresh = await start();
    await put(`/media/uploads/${fresh.uploadId}/chunks/0`, PNG.subarray(0, 1024));
    const writing = await start();
    await put(`/media/uploads/${writing.uploadId}/chunks/0`, PNG.subarray(0, 1024));
    expect(shopFiles()).toEqual(
      [path.basename(unclaimed.storagePath), partFile(half.storagePath), partFile(fresh.storagePath), partFile(writing.storagePath)].sort(),
    );

    const dayAndAnHourAgo = new Date(Date.now() - DAY - HOUR);
    await db.mediaUpload.updateMany({ where: { id: { in: [unclaimed.uploadId, half.uploadId, writing.uploadId] } }, data: { createdAt: dayAndAnHourAgo } });
    await db.mediaUpload.update({ where: { id: writing.uploadId }, data: { lockedAt: new Date() } });

    const uploads = async () => (await db.mediaUpload.findMany({ where: { shopId: shop.id }, select: { id: true } })).map((u) => u.id).sort();
    await until("two uploads left", async () => (await uploads()).length === 2, Boolean, { timeoutMs: 20_000 });
    expect(await uploads()).toEqual([fresh.uploadId, writing.uploadId].sort());
    expect(shopFiles()).toEqual([partFile(fresh.storagePath), partFile(writing.storagePath)].sort());
    // The pruned upload's address is gone.
    const gone = await api.get(`/media/uploads/${half.uploadId}`, { token });
    expect([gone.status, gone.body?.error]).toEqual([404, "not_found"]);

    // Found through the createdAt index, oldest first, never a scan.
    const reads = [...new Set(loggedStatements(server.output()).filter((q) => /FROM\s+\S*MediaUpload\S*\s+WHERE\s+\S*createdAt\S*\s*</.test(q)))];
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) {
      const plan = await explain(databaseUrl, read);
      expect(plan.fullScans, `${read}\n→\n${plan.text}`).toEqual([]);
      expect(plan.text).toMatch(/MediaUpload_createdAt_idx/);
    }
  });
});
