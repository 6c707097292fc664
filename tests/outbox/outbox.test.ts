// The outbox worker (SPEC 6.2, 8.2 rule 4): e-mails reach the log (embedded
// mode) or a real SMTP conversation, webhooks are signed and retried with
// backoff, only the job-lease holder delivers and claims hold when two
// processes drain at once, and a shutdown waits for the delivery in flight.
// Real server processes throughout; retry delays are scaled down with
// OUTBOX_BACKOFF_SCALE (30 s → 30 ms).
import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, wish, wishRaw, type Api } from "../support/api.ts";
import { startServer, type TestServer, logLines } from "../support/server.ts";
import { failWrites, sql } from "../support/sql.ts";
import { pause, until } from "../support/wait.ts";

const FAST = { OUTBOX_POLL_MS: "100", OUTBOX_BACKOFF_SCALE: "0.001" };

// ---------------------------------------------------------------- helpers

// The format Prisma's SQLite adapter writes; PostgreSQL accepts it too.
const iso = (d: Date) => d.toISOString().replace("Z", "+00:00");

interface Row {
  id: number;
  kind: string;
  topic: string;
  status: string;
  attempts: number;
  lastError: string | null;
  sentAt: unknown;
  payload: unknown;
}

async function messages(databaseUrl: string): Promise<Row[]> {
  const rows = await sql<Row>(databaseUrl, `SELECT "id", "kind", "topic", "status", "attempts", "lastError", "sentAt", "payload" FROM "OutboxMessage" ORDER BY "id"`);
  return rows.map((r) => ({ ...r, id: Number(r.id), payload: typeof r.payload === "string" ? JSON.parse(r.payload) : r.payload }));
}

async function message(databaseUrl: string, id: number): Promise<Row> {
  return (await messages(databaseUrl)).find((m) => m.id === id)!;
}

/** Queues messages the way enqueue() does, due now; returns their ids. */
async function insertMessages(databaseUrl: string, entries: { kind: string; topic: string; payload: unknown; attempts?: number }[]) {
  const now = new Date();
  const values = entries.map(() => `(?, ?, ?, 'pending', ?, ?, ?)`).join(", ");
  const params = entries.flatMap((e) => [e.kind, e.topic, JSON.stringify(e.payload), e.attempts ?? 0, iso(new Date(now.getTime() - 1000)), iso(now)]);
  const rows = await sql<{ id: number }>(
    databaseUrl,
    `INSERT INTO "OutboxMessage" ("kind", "topic", "payload", "status", "attempts", "nextAttemptAt", "createdAt") VALUES ${values} RETURNING "id"`,
    params,
  );
  return rows.map((r) => Number(r.id));
}

/** A partner on `plan`, made with the operator CLI. */
async function newPartner(databaseUrl: string, plan: string, email = `${Math.random().toString(36).slice(2, 8)}@shop.test`) {
  const partner = (await wish(databaseUrl, ["partner", "create", "--name", "Outbox Shop", "--email", email, "--plan", plan])).partner;
  return { id: partner.partner_id as number, email };
}

// ---------------------------------------------------------------- a webhook receiver

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * /flaky: 500 twice, then 200. /down: always 500. /hold: the response waits
 * until release() is called. Anything else: 200.
 */
async function startReceiver() {
  const received: Received[] = [];
  const held: ServerResponse[] = [];
  let flaky = 0;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body });
      if (req.url === "/hold") return void held.push(res);
      const fail = req.url === "/down" || (req.url === "/flaky" && ++flaky <= 2);
      res.writeHead(fail ? 500 : 200).end(fail ? "no" : "ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    received,
    held,
    release: () => held.splice(0).forEach((res) => res.writeHead(200).end("late ok")),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

function signatureValid(secret: string, r: Received): boolean {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const expected = createHmac("sha256", key).update(`${r.headers["webhook-id"]}.${r.headers["webhook-timestamp"]}.${r.body}`).digest("base64");
  return r.headers["webhook-signature"] === `v1,${expected}`;
}

// ---------------------------------------------------------------- a minimal SMTP server

interface Mail {
  from: string;
  to: string[];
  data: string;
}

/** Speaks just enough SMTP for nodemailer; the first `failFirst` messages get a temporary 451. */
async function startSmtp(failFirst = 0, refusal = "451 4.3.0 try again later") {
  const mails: Mail[] = [];
  let refused = 0;
  const server = net.createServer((socket) => {
    let buffer = "";
    let inData = false;
    let current: Mail = { from: "", to: [], data: "" };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply("220 fake.test ESMTP");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      for (let i = buffer.indexOf("\r\n"); i >= 0; i = buffer.indexOf("\r\n")) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (inData) {
          if (line !== ".") {
            current.data += line.replace(/^\./, "") + "\n";
            continue;
          }
          inData = false;
          if (refused < failFirst) {
            refused++;
            reply(refusal);
          } else {
            mails.push(current);
            reply("250 2.0.0 queued");
          }
          current = { from: "", to: [], data: "" };
          continue;
        }
        const verb = line.split(" ")[0]!.toUpperCase();
        if (verb === "MAIL") current.from = line;
        if (verb === "RCPT") current.to.push(line);
        if (verb === "DATA") inData = true;
        if (verb === "EHLO") reply("250-fake.test\r\n250 8BITMIME");
        else if (["HELO", "RSET", "NOOP", "MAIL", "RCPT"].includes(verb)) reply("250 OK");
        else if (verb === "DATA") reply("354 go ahead");
        else if (verb === "QUIT") socket.end("221 bye\r\n");
        else reply("502 not implemented");
      }
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as { port: number }).port, mails, close: () => new Promise((r) => server.close(r)) };
}

// ---------------------------------------------------------------- embedded mode and webhooks

describe("outbox worker (embedded mode: e-mails to the log)", () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let server: TestServer;
  let api: Api;

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startServer({ ...FAST, FETCH_TEST_ALLOW_HOSTS: `127.0.0.1:${receiver.port}` });
    api = await apiFor(server);
  });

  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
  });

  it("usage threshold e-mails of a counted save are logged and marked sent, their model kept for operators", async () => {
    const partner = await newPartner(server.databaseUrl, "free", "owner@threshold.test");
    const user = await api.anonymousUser();
    const lists = [];
    for (const name of ["A", "B", "C"]) {
      const res = await api.post("/hosted/me/lists", { token: user.accessToken, body: { name } });
      lists.push(res.body.list.db_id as number);
    }
    const url = `https://shop.example.com/products/threshold-${Date.now()}`;
    const first = await api.post("/hosted/save", { token: user.accessToken, body: { wishlistId: lists[0], product: { url, title: "Lamp" } } });
    expect(first.status).toBe(200);
    // Attribute the product to the partner and bring the month to 199 of 200.
    await sql(server.databaseUrl, `UPDATE "Product" SET "sourcePartnerId" = ? WHERE "id" = ?`, [partner.id, first.body.product_id]);
    const period = new Date().toISOString().slice(0, 7);
    await sql(server.databaseUrl, `INSERT INTO "UsageCounter" ("partnerId", "period", "saves", "shares", "listViews", "total") VALUES (?, ?, 199, 0, 0, 199)`, [partner.id, period]);

    const counted = await api.post("/hosted/save", { token: user.accessToken, body: { wishlistId: lists[1], product: { url, title: "Lamp" } } });
    expect(counted.status).toBe(200);

    const sent = await until(
      "both threshold e-mails sent",
      async () => (await messages(server.databaseUrl)).filter((m) => m.topic.startsWith("usage.threshold.")),
      (rows) => rows.length === 2 && rows.every((m) => m.status === "sent"),
    );
    expect(sent.map((m) => [m.kind, m.topic, m.attempts, m.sentAt !== null])).toEqual([
      ["email", "usage.threshold.80", 1, true],
      ["email", "usage.threshold.100", 1, true],
    ]);
    // The log line reaches this process's pipe a moment after the row says sent.
    const logged = await until(
      "both e-mails logged",
      async () => logLines(server, "email").filter((l) => l.to === "owner@threshold.test"),
      (lines) => lines.length >= 2,
    );
    expect(logged).toHaveLength(2);
    // E-mails go out concurrently: either may be logged first.
    expect(logged.map((l) => l.subject)).toEqual(expect.arrayContaining([expect.stringContaining("80%"), expect.stringContaining("used up")]));

    // Free plan at 100%: the next save is refused and no further e-mail is queued.
    const refused = await api.post("/hosted/save", { token: user.accessToken, body: { wishlistId: lists[2], product: { url, title: "Lamp" } } });
    expect(refused.status).toBe(402);
    expect((await messages(server.databaseUrl)).filter((m) => m.topic.startsWith("usage.threshold."))).toHaveLength(2);

    // Operators read what was delivered with `wish outbox`: the model the template wrote the e-mail from.
    const listed = await wish(server.databaseUrl, ["outbox", "--status", "sent", "--limit", "10"]);
    const hundred = listed.messages.find((m: { topic: string }) => m.topic === "usage.threshold.100");
    expect(hundred).toMatchObject({
      kind: "email",
      status: "sent",
      attempts: 1,
      created_at: expect.any(String),
      sent_at: expect.any(String),
      payload: { to: "owner@threshold.test", model: { template: "usage", lang: "en", threshold: 100, total: 200, limit: 200, hardLimit: true } },
    });
  });

  it("a threshold e-mail whose queueing fails once is still delivered exactly once: the save that reaches 100% fails with it and its retry sends it", async () => {
    const partner = await newPartner(server.databaseUrl, "free", "owner@lost-threshold.test");
    const user = await api.anonymousUser();
    const lists = [];
    for (const name of ["A", "B", "C", "D"]) lists.push((await api.post("/hosted/me/lists", { token: user.accessToken, body: { name } })).body.list.db_id as number);
    const url = `https://shop.example.com/products/lost-threshold-${Date.now()}`;
    const save = (list: number) => api.post("/hosted/save", { token: user.accessToken, body: { wishlistId: list, product: { url, title: "Lamp" } } });
    const first = await save(lists[0]!);
    await sql(server.databaseUrl, `UPDATE "Product" SET "sourcePartnerId" = ? WHERE "id" = ?`, [partner.id, first.body.product_id]);
    const period = new Date().toISOString().slice(0, 7);
    await sql(server.databaseUrl, `INSERT INTO "UsageCounter" ("partnerId", "period", "saves", "shares", "listViews", "total") VALUES (?, ?, 199, 0, 0, 199)`, [partner.id, period]);
    const total = async () => Number((await sql<{ total: number }>(server.databaseUrl, `SELECT "total" FROM "UsageCounter" WHERE "partnerId" = ?`, [partner.id]))[0]!.total);

    // The database refuses the 100% e-mail once (a trigger), then lets it pass.
    const allow = await failWrites(server.databaseUrl, "OutboxMessage", "INSERT", "topic", "usage.threshold.100");
    const failed = await save(lists[1]!);
    await allow();
    // The count and its e-mail go together: neither is kept, so the threshold is still ahead.
    expect(failed.status).toBe(500);
    expect(failed.body.error).toBe("save_failed");
    expect(await total()).toBe(199);

    const retried = await save(lists[1]!);
    expect(retried.status).toBe(200);
    expect(await total()).toBe(200);
    expect((await save(lists[2]!)).status).toBe(402);

    const mine = async () => (await messages(server.databaseUrl)).filter((m) => (m.payload as { to?: string }).to === "owner@lost-threshold.test");
    const sent = await until("both threshold e-mails sent", mine, (rows) => rows.length === 2 && rows.every((m) => m.status === "sent"));
    expect(sent.map((m) => m.topic)).toEqual(["usage.threshold.80", "usage.threshold.100"]);
    // The log lines travel through a pipe and can trail the rows' status.
    const logged = await until("both e-mails' log lines", () => logLines(server, "email").filter((l) => l.to === "owner@lost-threshold.test"), (l) => l.length >= 2);
    expect(logged).toHaveLength(2);
    expect(logged.map((l) => l.subject)).toEqual(expect.arrayContaining([expect.stringContaining("80%"), expect.stringContaining("used up")]));
  });

  it("a queued e-mail row is delivered within a few seconds", async () => {
    const [id] = await insertMessages(server.databaseUrl, [{ kind: "email", topic: "test.mail", payload: { to: "ops@example.test", subject: "Hello ops", text: "body" } }]);
    const row = await until("sent", () => message(server.databaseUrl, id!), (m) => m.status === "sent", { timeoutMs: 5000 });
    expect(row.attempts).toBe(1);
    // The log line travels through a pipe and can arrive a moment after the row says sent.
    const mail = (l: Record<string, unknown>) => l.to === "ops@example.test" && l.subject === "Hello ops";
    await until("the e-mail's log line", () => logLines(server, "email").filter(mail), (lines) => lines.length === 1);
  });

  it("a checkout event's webhook is queued without waiting for the receiver, then delivered signed", async () => {
    const partner = await newPartner(server.databaseUrl, "growth");
    const basket = await wish(server.databaseUrl, ["basket", "create", "--partner", String(partner.id), "--webhook", `http://127.0.0.1:${receiver.port}/hold`]);
    const id = basket.basket.id as string;

    // The receiver holds its answer: a delivery inside the request would hang this call.
    const res = await api.post(`/baskets/${id}/event`, { noApiKey: true, body: { type: "checkout_started", meta: { total_minor: 4200 } } });
    expect(res.status).toBe(201);
    await until("receiver got the webhook", async () => receiver.held.length, (n) => n === 1);
    const [queued] = (await messages(server.databaseUrl)).filter((m) => m.kind === "webhook" && (m.payload as { basket_id: string }).basket_id === id);
    expect(queued).toMatchObject({ topic: "basket.checkout_started", status: "pending" });
    receiver.release();
    await until("sent", () => message(server.databaseUrl, queued!.id), (m) => m.status === "sent");

    const got = receiver.received.filter((r) => r.path === "/hold");
    expect(got).toHaveLength(1);
    expect(got[0]!.headers["webhook-id"]).toBe(String(queued!.id));
    expect(signatureValid(basket.webhookSecret, got[0]!)).toBe(true);
    expect(JSON.parse(got[0]!.body)).toEqual({ type: "basket.checkout_started", basket_id: id, occurred_at: expect.any(String), meta: { total_minor: 4200 } });

    // Events that are not checkouts do not call the webhook.
    await api.post(`/baskets/${id}/event`, { noApiKey: true, body: { type: "open" } });
    expect((await messages(server.databaseUrl)).filter((m) => m.kind === "webhook" && (m.payload as { basket_id: string }).basket_id === id)).toHaveLength(1);
  });

  it("retries with backoff: a receiver failing twice gets the message on the third attempt, same id and valid signature each time", async () => {
    const partner = await newPartner(server.databaseUrl, "scale");
    const basket = await wish(server.databaseUrl, ["basket", "create", "--partner", String(partner.id), "--webhook", `http://127.0.0.1:${receiver.port}/flaky`]);
    const res = await api.post(`/baskets/${basket.basket.id}/event`, { noApiKey: true, body: { type: "checkout_completed" } });
    expect(res.status).toBe(201);
    const [queued] = (await messages(server.databaseUrl)).filter((m) => (m.payload as { basket_id?: string }).basket_id === basket.basket.id);
    const row = await until("sent", () => message(server.databaseUrl, queued!.id), (m) => m.status === "sent");
    expect(row.attempts).toBe(3);
    expect(row.lastError).toBeNull();
    const calls = receiver.received.filter((r) => r.path === "/flaky");
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((c) => c.headers["webhook-id"]))).toEqual(new Set([String(queued!.id)]));
    for (const c of calls) expect(signatureValid(basket.webhookSecret, c)).toBe(true);
  });

  it("the sixth failed attempt is final: status failed, last error kept", async () => {
    const partner = await newPartner(server.databaseUrl, "enterprise");
    const basket = await wish(server.databaseUrl, ["basket", "create", "--partner", String(partner.id), "--webhook", `http://127.0.0.1:${receiver.port}/down`]);
    // Five attempts already behind it (the full schedule takes hours even scaled down).
    const [id] = await insertMessages(server.databaseUrl, [
      { kind: "webhook", topic: "basket.checkout_started", attempts: 5, payload: { basket_id: basket.basket.id, body: { type: "basket.checkout_started" } } },
    ]);
    const row = await until("failed", () => message(server.databaseUrl, id!), (m) => m.status === "failed");
    expect(row.attempts).toBe(6);
    expect(row.lastError).toContain("500");
    expect(row.sentAt).toBeNull();
    // Stays failed: no seventh call.
    await pause(400, "four outbox polls (every 100 ms) in which a seventh call would have gone out");
    expect(receiver.received.filter((r) => r.path === "/down")).toHaveLength(1);

    const failed = await wish(server.databaseUrl, ["outbox", "--status", "failed"]);
    expect(failed.messages.find((m: { id: number }) => m.id === id)).toMatchObject({ status: "failed", attempts: 6, last_error: expect.stringContaining("500") });
  });

  it("a webhook whose basket is gone fails at once instead of retrying", async () => {
    const [id] = await insertMessages(server.databaseUrl, [
      { kind: "webhook", topic: "basket.checkout_started", payload: { basket_id: "bkt_AAAAAAAAAAAAAAAAAAAAAA", body: {} } },
    ]);
    const row = await until("failed", () => message(server.databaseUrl, id!), (m) => m.status === "failed");
    expect(row.attempts).toBe(1);
    expect(row.lastError).toMatch(/no longer exists/);
  });

  it("a webhook target the fetch guard refuses fails at once with the reason, no retries", async () => {
    const partner = await newPartner(server.databaseUrl, "growth");
    const ids: number[] = [];
    // A private address, and a public one on a port other than 80/443.
    for (const target of ["http://10.0.0.1/hook", "http://93.184.216.34:8080/hook"]) {
      const basket = await wish(server.databaseUrl, ["basket", "create", "--partner", String(partner.id), "--webhook", target]);
      const [id] = await insertMessages(server.databaseUrl, [
        { kind: "webhook", topic: "basket.checkout_started", payload: { basket_id: basket.basket.id, body: { type: "basket.checkout_started" } } },
      ]);
      ids.push(id!);
    }
    const [privateTarget, otherPort] = await Promise.all(ids.map((id) => until("failed", () => message(server.databaseUrl, id), (m) => m.status !== "pending", { timeoutMs: 5000 })));
    expect(privateTarget).toMatchObject({ status: "failed", attempts: 1, sentAt: null, lastError: "webhook target refused: The address is not allowed" });
    expect(otherPort).toMatchObject({ status: "failed", attempts: 1, sentAt: null, lastError: "webhook target refused: Only ports 80 and 443 can be fetched" });
    // The log line follows the status through the server's stdout pipe: wait for it.
    await expect.poll(() => logLines(server, "outbox message failed").filter((l) => ids.includes(l.id as number))).toHaveLength(2);
  });

  it("two instances on one database: only the lease holder delivers; a second process draining at once still claims each message once", async () => {
    const twin = await startServer({ ...FAST, DATABASE_URL: server.databaseUrl });
    try {
      // This test process drains too, as a holder that stalled past its lease would beside its successor: the claims keep that safe.
      Object.assign(process.env, { DATABASE_URL: server.databaseUrl, APP_URL: server.url, LOG_LEVEL: "warn" });
      const { runOutboxOnce } = await import("~/domains/outbox/worker.server");
      const entries = Array.from({ length: 30 }, (_, i) => ({
        kind: "email",
        topic: "test.bulk",
        payload: { to: `bulk-${i}@example.test`, subject: `Bulk ${i}`, text: "" },
      }));
      const ids = await insertMessages(server.databaseUrl, entries);
      let done = false;
      const drains = (async () => {
        while (!done) {
          await runOutboxOnce();
          // SQLite queries settle without a macrotask: yield, or the timers of this test never run.
          await new Promise((r) => setImmediate(r));
        }
      })();
      await until("all sent", async () => (await messages(server.databaseUrl)).filter((m) => ids.includes(m.id)), (rows) => rows.every((m) => m.status === "sent"));
      done = true;
      await drains;
      const rows = (await messages(server.databaseUrl)).filter((m) => ids.includes(m.id));
      expect(rows.every((m) => m.attempts === 1)).toBe(true);
      expect(logLines(twin, "email")).toEqual([]);
      const logged = logLines(server, "email").map((l) => String(l.to)).filter((to) => to.startsWith("bulk-"));
      expect(new Set(logged).size).toBe(logged.length);
    } finally {
      await twin.stop();
    }
  });

  it("wish outbox validates its options", async () => {
    const bad = await wishRaw(server.databaseUrl, ["outbox", "--status", "lost"]);
    expect(bad.code).not.toBe(0);
    expect(JSON.parse(bad.stderr.trim().split("\n").at(-1)!)).toMatchObject({ error: "invalid_status" });
    const limited = await wish(server.databaseUrl, ["outbox", "--limit", "2"]);
    expect(limited.messages).toHaveLength(2);
    expect(limited.messages[0].id).toBeGreaterThan(limited.messages[1].id);
  });
});

// ---------------------------------------------------------------- a hanging receiver

describe("outbox worker with a receiver that hangs", () => {
  it("delivers other targets and e-mails while one target holds its answers, and calls that target at most OUTBOX_CONCURRENCY_PER_TARGET at once", async () => {
    const slow = await startReceiver();
    const fast = await startReceiver();
    // Five slots: two kept for e-mails, three for webhooks, two per target.
    const server = await startServer({
      ...FAST,
      OUTBOX_CONCURRENCY: "5",
      OUTBOX_CONCURRENCY_PER_TARGET: "2",
      FETCH_TEST_ALLOW_HOSTS: `127.0.0.1:${slow.port},127.0.0.1:${fast.port}`,
    });
    try {
      const partner = await newPartner(server.databaseUrl, "growth");
      const basket = async (url: string) => (await wish(server.databaseUrl, ["basket", "create", "--partner", String(partner.id), "--webhook", url])).basket.id as string;
      const slowBasket = await basket(`http://127.0.0.1:${slow.port}/hold`);
      const fastBasket = await basket(`http://127.0.0.1:${fast.port}/fast`);
      const webhook = (basketId: string, i: number) => ({ kind: "webhook", topic: "basket.checkout_started", payload: { basket_id: basketId, body: { n: i } } });
      // The hanging target's messages are the oldest, so a worker going in order meets them first.
      const held = await insertMessages(server.databaseUrl, [0, 1, 2, 3, 4].map((i) => webhook(slowBasket, i)));
      const others = await insertMessages(server.databaseUrl, [
        ...[0, 1, 2].map((i) => webhook(fastBasket, i)),
        ...[0, 1, 2].map((i) => ({ kind: "email", topic: "test.mail", payload: { to: `beside-${i}@example.test`, subject: `Beside ${i}`, text: "" } })),
      ]);

      await until("the other messages sent", async () => (await messages(server.databaseUrl)).filter((m) => others.includes(m.id)), (rows) => rows.every((m) => m.status === "sent"));
      // All of that happened while the hanging target still held its calls open: nothing waited for its timeout.
      expect(slow.held).toHaveLength(2);
      expect(slow.held.every((res) => res.socket !== null && !res.socket.destroyed)).toBe(true);
      expect(fast.received.filter((r) => r.path === "/fast")).toHaveLength(3);
      expect(logLines(server, "email").filter((l) => String(l.to).startsWith("beside-"))).toHaveLength(3);

      // Answering lets the next ones through, never more than two at once.
      const seen: number[] = [];
      await until(
        "the held messages sent",
        async () => {
          seen.push(slow.held.length);
          slow.release();
          return (await messages(server.databaseUrl)).filter((m) => held.includes(m.id));
        },
        (rows) => rows.every((m) => m.status === "sent"),
      );
      expect(Math.max(...seen)).toBeLessThanOrEqual(2);
      expect(slow.received.filter((r) => r.path === "/hold")).toHaveLength(5);
    } finally {
      slow.release();
      await server.stop();
      await slow.close();
      await fast.close();
    }
    }, 60_000);

  it("refuses OUTBOX_CONCURRENCY_PER_TARGET not below OUTBOX_CONCURRENCY at boot", async () => {
    const started = await startServer({ OUTBOX_CONCURRENCY: "2", OUTBOX_CONCURRENCY_PER_TARGET: "2" }).then(
      (server) => server.stop().then(() => null),
      (err: Error) => err,
    );
    expect(started?.message).toMatch(/OUTBOX_CONCURRENCY_PER_TARGET: must be less than OUTBOX_CONCURRENCY/);
  });
});

// ---------------------------------------------------------------- SMTP

describe("outbox worker with SMTP_URL", () => {
  it("sends through SMTP (nodemailer), retrying a temporary refusal, and does not log the e-mail", async () => {
    const smtp = await startSmtp(1);
    const server = await startServer({ ...FAST, SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: "Wishlist <mail@wishlist.test>" });
    try {
      const [id] = await insertMessages(server.databaseUrl, [
        { kind: "email", topic: "test.smtp", payload: { to: "partner@example.test", subject: "Threshold reached", text: "You used 80%." } },
      ]);
      const row = await until("sent", () => message(server.databaseUrl, id!), (m) => m.status === "sent");
      expect(row.attempts).toBe(2);
      expect(smtp.mails).toHaveLength(1);
      const mail = smtp.mails[0]!;
      expect(mail.from).toContain("mail@wishlist.test");
      expect(mail.to).toEqual([expect.stringContaining("partner@example.test")]);
      expect(mail.data).toContain("Subject: Threshold reached");
      expect(mail.data).toContain("You used 80%.");
      expect(logLines(server, "email")).toHaveLength(0);
    } finally {
      await server.stop();
      await smtp.close();
    }
  });

  it("a permanent refusal (5xx) fails the message at once, no retries", async () => {
    const smtp = await startSmtp(1, "550 5.1.1 no such mailbox");
    const server = await startServer({ ...FAST, SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
    try {
      const [id] = await insertMessages(server.databaseUrl, [{ kind: "email", topic: "test.smtp", payload: { to: "gone@example.test", subject: "Hello", text: "Hi" } }]);
      const row = await until("failed", () => message(server.databaseUrl, id!), (m) => m.status === "failed");
      expect(row).toMatchObject({ attempts: 1, lastError: expect.stringContaining("550 5.1.1 no such mailbox") });
      expect(smtp.mails).toHaveLength(0);
    } finally {
      await server.stop();
      await smtp.close();
    }
  });

  it("an e-mail whose sent mark fails after the mail server took it is not sent again: the mark is retried", async () => {
    const smtp = await startSmtp();
    const server = await startServer({ ...FAST, SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
    try {
      // The database refuses the "sent" mark, as a stalled database does, until the mail is out.
      const allow = await failWrites(server.databaseUrl, "OutboxMessage", "UPDATE", "status", "sent");
      const [id] = await insertMessages(server.databaseUrl, [{ kind: "email", topic: "test.smtp", payload: { to: "once@example.test", subject: "Once", text: "Only once" } }]);
      await until("mail taken", async () => smtp.mails.length, (n) => n === 1);
      await until("mark refused", async () => logLines(server, "outbox sent mark failed, will retry").length, (n) => n >= 1);
      await allow();
      const row = await until("sent", () => message(server.databaseUrl, id!), (m) => m.status === "sent");
      expect(row.attempts).toBe(1);
      expect(smtp.mails).toHaveLength(1);
      expect(smtp.mails[0]!.data).toMatch(new RegExp(`Message-ID: <outbox-${id}@`, "i"));
    } finally {
      await server.stop();
      await smtp.close();
    }
  });
});

// ---------------------------------------------------------------- shutdown

describe("outbox worker shutdown", () => {
  // Started before the test (under the hook timeout): on a loaded machine a server start alone takes seconds of the test's 30.
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let server: TestServer;
  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startServer({ ...FAST, FETCH_TEST_ALLOW_HOSTS: `127.0.0.1:${receiver.port}` });
  });
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
  });

  it("waits for the delivery in flight before the process exits", async () => {
    const partner = await newPartner(server.databaseUrl, "growth");
    const basket = await wish(server.databaseUrl, ["basket", "create", "--partner", String(partner.id), "--webhook", `http://127.0.0.1:${receiver.port}/hold`]);
    const api = await apiFor(server);
    await api.post(`/baskets/${basket.basket.id}/event`, { noApiKey: true, body: { type: "checkout_started" } });
    await until("delivery in flight", async () => receiver.held.length, (n) => n === 1);

    const stopped = server.stop();
    await until("shutdown begun", async () => server.output(), (out) => out.includes('"msg":"shutting down"'), { timeoutMs: 5000 });
    const [inFlight] = await messages(server.databaseUrl);
    expect(inFlight!.status).toBe("pending");
    receiver.release();
    await stopped;
    const [done] = await messages(server.databaseUrl);
    expect(done).toMatchObject({ status: "sent", attempts: 1 });
  });
});
