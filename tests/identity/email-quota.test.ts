// E-mails to typed addresses (docs/identity.md "E-mail to typed addresses"):
// counted per recipient and per client address per UTC day across all
// accounts, with one conditional upsert each, so many accounts firing at
// once still get at most the cap to one mailbox. The e-mails are what a real
// SMTP server in this process receives. Guests cannot start alert e-mails.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api } from "../support/api.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { emailsSettled, startMailSink, type MailSink } from "../support/smtp.ts";
import { sql } from "../support/sql.ts";

const PASSWORD = "a good long password";
const RECIPIENT_CAP = 5;
const CLIENT_CAP = 8;
let nextHost = 1;
/** A fresh IPv4 client address (TEST-NET-3), one per call. */
const freshAddress = () => `203.0.113.${nextHost++}`;
const suffix = () => Math.random().toString(36).slice(2, 10);

let smtp: MailSink;
let server: TestServer;
let api: Api;

beforeAll(async () => {
  smtp = await startMailSink();
  server = await startServer({
    SMTP_URL: smtp.url,
    OUTBOX_POLL_MS: "100",
    OUTBOX_BACKOFF_SCALE: "0.001",
    // Behind a trusted proxy (loopback), X-Forwarded-For names the client: each request picks its address.
    TRUSTED_PROXIES: "loopback",
    EMAILS_PER_RECIPIENT_PER_DAY: String(RECIPIENT_CAP),
    EMAILS_PER_CLIENT_PER_DAY: String(CLIENT_CAP),
  });
  api = await apiFor(server);
});

afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

/** The wish_user cookie of an access token, as the dialog sets it. */
async function cookieOf(accessToken: string): Promise<string> {
  const res = await fetch(`${server.url}/session/cookie`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ access_token: accessToken }),
  });
  expect(res.status).toBe(200);
  return /wish_user=[^;]+/.exec(res.headers.get("set-cookie") ?? "")![0];
}

async function emailAccount(): Promise<{ email: string; cookie: string }> {
  const email = `owner-${suffix()}@shopper.test`;
  const res = await api.post("/auth/signup", { body: { email, password: PASSWORD }, headers: { "x-forwarded-for": freshAddress() } });
  expect(res.status).toBe(200);
  return { email, cookie: await cookieOf(res.body.access_token) };
}

/** "My lists": alerts on for `email`, from client `from`; the page's JSON answer (enhanced form). */
async function askAlerts(cookie: string, email: string, from: string) {
  const res = await fetch(`${server.url}/en/lists?_data=${encodeURIComponent("routes/$lang.lists")}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url, cookie, "x-forwarded-for": from },
    body: new URLSearchParams({ intent: "alerts-on", email, consent: "yes", enhanced: "1" }),
  });
  return { status: res.status, body: (await res.json()) as { ok: boolean; error?: string } };
}

const quotaRows = (key: string) => sql<{ count: number }>(server.databaseUrl, `SELECT "count" FROM "EmailQuota" WHERE "key" LIKE ?`, [key]);

describe("e-mails to a typed address", () => {
  it("60 confirmation requests to one address from 12 accounts at once: the mailbox gets the per-recipient cap", async () => {
    const target = `victim-${suffix()}@mailbox.test`;
    const accounts = await Promise.all(Array.from({ length: 12 }, () => emailAccount()));
    // Five each (the per-account cap), every account from its own client address.
    const answers = await Promise.all(
      accounts.flatMap((a) => {
        const from = freshAddress();
        return Array.from({ length: 5 }, () => askAlerts(a.cookie, target, from));
      }),
    );
    const accepted = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(accepted.length).toBe(RECIPIENT_CAP);
    expect(refused.length).toBe(60 - RECIPIENT_CAP);
    expect(new Set(refused.map((r) => r.body.error))).toEqual(new Set(["too_many_requests"]));
    await emailsSettled(server.databaseUrl);
    expect(smtp.to(target).length).toBe(RECIPIENT_CAP);
    const rows = await quotaRows("to:%");
    expect(rows.some((r) => Number(r.count) === RECIPIENT_CAP)).toBe(true);
    expect(rows.every((r) => Number(r.count) <= RECIPIENT_CAP)).toBe(true);
  });

  it("one client address gets its cap of e-mails to many addresses, then 429", async () => {
    const from = freshAddress();
    const accounts = await Promise.all(Array.from({ length: 4 }, () => emailAccount()));
    const targets = Array.from({ length: 12 }, () => `someone-${suffix()}@mailbox.test`);
    const answers = await Promise.all(targets.map((t, i) => askAlerts(accounts[i % 4]!.cookie, t, from)));
    expect(answers.filter((a) => a.status === 200).length).toBe(CLIENT_CAP);
    expect(answers.filter((a) => a.status === 429).every((a) => a.body.error === "too_many_requests")).toBe(true);
    await emailsSettled(server.databaseUrl);
    expect(targets.reduce((n, t) => n + smtp.to(t).length, 0)).toBe(CLIENT_CAP);
    expect(Number((await quotaRows(`ip:${from}`))[0]!.count)).toBe(CLIENT_CAP);
  });

  it("a guest cannot start alert e-mails: 403 account_required, nothing sent or counted", async () => {
    const guest = await api.post("/auth/signup", { body: {}, headers: { "x-forwarded-for": freshAddress() } });
    expect(guest.status).toBe(200);
    const cookie = await cookieOf(guest.body.access_token);
    const target = `guest-target-${suffix()}@mailbox.test`;
    const from = freshAddress();
    const answer = await askAlerts(cookie, target, from);
    expect(answer.status).toBe(403);
    expect(answer.body.error).toBe("account_required");
    await emailsSettled(server.databaseUrl);
    expect(smtp.to(target)).toEqual([]);
    expect(await quotaRows(`ip:${from}`)).toEqual([]);
  });
});
