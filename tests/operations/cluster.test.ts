// WEB_CONCURRENCY (app/server/cluster.ts): worker processes on one port,
// replaced when they die, stopped together; and the deployment-wide jobs
// (pruning, outbox) in exactly one process, the holder of the job lease,
// which passes to another process when its holder dies.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer, logLines, isAlive } from "../support/server.ts";
import { sql } from "../support/sql.ts";
import { until } from "../support/wait.ts";

const LEASE_TTL_MS = 2000;
const FAST = { JOB_LEASE_TTL_MS: String(LEASE_TTL_MS), OUTBOX_POLL_MS: "100", PRUNE_INTERVAL_MS: "200" };

/** A GET on a fresh connection each time, so the primary hands each to the next worker. */
function getFresh(url: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        let body = "";
        res.on("data", (d) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      })
      .on("error", reject);
  });
}

/** Pids of the workers alive now, from the primary's log. */
function workerPids(server: TestServer): Set<number> {
  const pids = new Set(logLines(server, "worker listening").map((l) => l.pid as number));
  for (const died of [...logLines(server, "worker died, restarting"), ...logLines(server, "shutting down")]) pids.delete(died.pid as number);
  return pids;
}

const leaseRows = (server: TestServer) => sql<{ name: string; holder: string }>(server.databaseUrl, `SELECT "name", "holder" FROM "JobLease"`);
const pidOfHolder = (holder: string) => Number(holder.split("/")[1]);

const iso = (d: Date) => d.toISOString().replace("Z", "+00:00");
async function queueEmails(server: TestServer, tag: string, count: number): Promise<string[]> {
  const to = Array.from({ length: count }, (_, i) => `${tag}-${i}@cluster.test`);
  const past = iso(new Date(Date.now() - 1000));
  await sql(
    server.databaseUrl,
    `INSERT INTO "OutboxMessage" ("kind", "topic", "payload", "status", "attempts", "nextAttemptAt", "createdAt") VALUES ${to.map(() => `('email', 'test.cluster', ?, 'pending', 0, ?, ?)`).join(", ")}`,
    to.flatMap((address) => [JSON.stringify({ to: address, subject: tag, text: "" }), past, past]),
  );
  return to;
}
/** The pids that logged the e-mails to these addresses (embedded mode: e-mails go to the log), once all are sent. */
async function deliveredBy(server: TestServer, addresses: string[]): Promise<number[]> {
  const lines = await until(
    "e-mails delivered",
    () => logLines(server, "email").filter((l) => addresses.includes(l.to as string)),
    (found) => found.length >= addresses.length,
  );
  expect(lines.map((l) => l.to).sort()).toEqual([...addresses].sort()); // each exactly once
  return [...new Set(lines.map((l) => l.pid as number))];
}

describe("WEB_CONCURRENCY=2", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(FAST, { workers: 2 });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("applies migrations once, then answers on one port from two worker processes; the pid is in the log only", async () => {
    expect(logLines(server, "migrations applied")).toHaveLength(1);
    const [listening, ...more] = logLines(server, "listening");
    expect(more).toEqual([]);
    expect(listening).toMatchObject({ host: "127.0.0.1", port: Number(new URL(server.url).port), app_url: server.url, workers: 2 });
    const workers = workerPids(server);
    expect(workers.size).toBe(2);
    expect(workers.has(server.pid)).toBe(false);

    const before = logLines(server, "request").length;
    for (let i = 0; i < 10; i++) {
      const res = await getFresh(`${server.baseUrl}/`);
      expect(res.status).toBe(200);
      // Nothing names the worker: the body is the status record, no header carries a pid (the date header aside).
      expect(Object.keys(JSON.parse(res.body)).sort()).toEqual(["name", "status", "time", "version"]);
      const headerValues = Object.entries(res.headers).filter(([name]) => name !== "date").map(([, value]) => String(value));
      for (const pid of workers) expect(headerValues.some((v) => new RegExp(`\\b${pid}\\b`).test(v))).toBe(false);
    }
    const served = await until("request lines", () => logLines(server, "request").slice(before), (l) => l.length >= 10);
    expect(new Set(served.map((l) => l.pid))).toEqual(workers);
  });

  it("runs the deployment-wide jobs in one worker only: the lease holder delivers every outbox message", async () => {
    const [lease, ...others] = await until("lease taken", () => leaseRows(server), (rows) => rows.length > 0);
    expect(others).toEqual([]);
    expect(lease!.name).toBe("background");
    const holder = pidOfHolder(lease!.holder);
    expect(workerPids(server).has(holder)).toBe(true);
    expect(logLines(server, "job lease taken").map((l) => l.pid)).toEqual([holder]);

    const addresses = await queueEmails(server, "once", 12);
    expect(await deliveredBy(server, addresses)).toEqual([holder]);
  });

  it("replaces a killed worker; when it held the lease, another process takes over within the expiry", async () => {
    const before = workerPids(server);
    const holder = pidOfHolder((await leaseRows(server))[0]!.holder);
    const killedAt = Date.now();
    process.kill(holder, "SIGKILL");

    const [taken] = await until(
      "lease taken over",
      () => logLines(server, "job lease taken").filter((l) => l.pid !== holder),
      (lines) => lines.length > 0,
    );
    // The dead holder's lease runs out after LEASE_TTL_MS; others try every third of that.
    expect(Date.now() - killedAt).toBeLessThan(LEASE_TTL_MS * 2 + 1000);
    expect(pidOfHolder((await leaseRows(server))[0]!.holder)).toBe(taken!.pid);
    expect(logLines(server, "worker died, restarting")).toEqual([expect.objectContaining({ pid: holder, signal: "SIGKILL" })]);

    // Generous: a worker loads the whole app, slow on a busy machine.
    const after = await until("replacement listening", () => [...workerPids(server)], (pids) => pids.length === 2 && !pids.includes(holder), { timeoutMs: 45_000 });
    const [survivor] = [...before].filter((pid) => pid !== holder);
    expect(after).toContain(survivor);

    const addresses = await queueEmails(server, "takeover", 3);
    expect(await deliveredBy(server, addresses)).toEqual([taken!.pid]);
    // Both the survivor and the replacement serve.
    const from = logLines(server, "request").length;
    for (let i = 0; i < 10; i++) expect((await getFresh(`${server.baseUrl}/`)).status).toBe(200);
    const served = await until("request lines", () => logLines(server, "request").slice(from), (l) => l.length >= 10);
    expect(new Set(served.map((l) => l.pid))).toEqual(new Set(after));
  }, 90_000);

  it("SIGTERM stops every worker and then the primary, exit code 0, and releases the lease", async () => {
    const workers = workerPids(server);
    expect((await leaseRows(server)).length).toBe(1);
    await server.stop();
    expect(await server.exited).toBe(0);
    for (const pid of workers) expect(isAlive(pid)).toBe(false);
    expect(logLines(server, "shutting down").filter((l) => workers.has(l.pid as number))).toHaveLength(2);
    expect(logLines(server, "job lease released")).toHaveLength(1);
    expect(await leaseRows(server)).toEqual([]);
  });
});

describe("the job lease across servers", () => {
  it("two servers on one database (as two machines): one holder; a clean stop hands the jobs over without waiting for the expiry", async () => {
    const slow = { ...FAST, JOB_LEASE_TTL_MS: "9000" }; // renewals and tries every 3 s
    const first = await startServer(slow);
    const second = await startServer({ ...slow, DATABASE_URL: first.databaseUrl });
    try {
      const [lease] = await until("lease taken", () => leaseRows(first), (rows) => rows.length === 1);
      expect(pidOfHolder(lease!.holder)).toBe(first.pid);
      expect(logLines(second, "job lease taken")).toEqual([]);
      await first.stop();
      const stoppedAt = Date.now();
      // The first renewed at most 3 s before stopping, so its lease would run at least 6 s more;
      // released at shutdown, the second takes it at its next try, within 3 s.
      const [next] = await until("lease passed on", () => leaseRows(second), (rows) => rows.length === 1 && pidOfHolder(rows[0]!.holder) === second.pid);
      expect(Date.now() - stoppedAt).toBeLessThan(5000);
      expect(pidOfHolder(next!.holder)).toBe(second.pid);
      const addresses = await queueEmails(second, "handover", 2);
      expect(await deliveredBy(second, addresses)).toEqual([undefined]); // a single process logs no pid
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  });
});
