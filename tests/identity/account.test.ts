// Account basics of the identity provider in GoTrue's shape (docs/identity.md
// "Account basics"): password recovery by a one-time e-mailed link, changing
// password, address and display name, over HTTP against the built server,
// with the e-mails as a real SMTP server in this process receives them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api } from "../support/api.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { emailsSettled, startMailSink, type MailSink } from "../support/smtp.ts";
import { sql } from "../support/sql.ts";
import { until } from "../support/wait.ts";

const PASSWORD = "a good long password";
const NEW_PASSWORD = "another good password";
const RECIPIENT_CAP = 3;
let nextHost = 1;
/** A fresh IPv4 client address (TEST-NET-3), one per call. */
const freshAddress = () => `203.0.113.${nextHost++}`;
const suffix = () => Math.random().toString(36).slice(2, 10);
const address = (tag: string) => `${tag}-${suffix()}@shopper.test`;

let smtp: MailSink;
let server: TestServer;
let api: Api;

beforeAll(async () => {
  smtp = await startMailSink();
  server = await startServer({
    SMTP_URL: smtp.url,
    OUTBOX_POLL_MS: "100",
    OUTBOX_BACKOFF_SCALE: "0.001",
    TRUSTED_PROXIES: "loopback",
    EMAILS_PER_RECIPIENT_PER_DAY: String(RECIPIENT_CAP),
  });
  api = await apiFor(server);
});

afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

const from = () => ({ "x-forwarded-for": freshAddress() });

async function account(tag = "acct", data?: Record<string, unknown>) {
  const email = address(tag);
  const res = await api.post("/auth/signup", { body: { email, password: PASSWORD, ...(data ? { data } : {}) }, headers: from() });
  expect(res.status).toBe(200);
  return { email, userId: res.body.user.id as string, access: res.body.access_token as string, refresh: res.body.refresh_token as string, body: res.body };
}

const signIn = (email: string, password: string) =>
  api.post("/auth/token?grant_type=password", { body: { email, password }, headers: from() });

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

/** What the cookie trades for at /session/token: a session, or null once its sign-in session ended. */
async function cookieSession(cookie: string) {
  const res = await fetch(`${server.url}/session/token`, { method: "POST", headers: { origin: server.url, cookie } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { session: unknown }).session;
}

/** The token of the newest link mailed to `to` for `page` (reset or confirm-email). */
async function linkTokenTo(to: string, page: "reset" | "confirm-email", count = 1): Promise<{ url: string; token: string }> {
  await emailsSettled(server.databaseUrl);
  const mails = await until(`${page} e-mail to ${to}`, () => smtp.to(to).filter((m) => m.text.includes(`/account/${page}#token=`)), (m) => m.length >= count);
  const url = new RegExp(`(https?://\\S+/account/${page}#token=[A-Za-z0-9_-]+)`).exec(mails.at(-1)!.text)![1]!;
  return { url, token: url.split("#token=")[1]! };
}

describe("password recovery", () => {
  it("recover always answers {}: unknown addresses and guests get nothing; a bad address is 400 invalid_email", async () => {
    const unknown = address("nobody");
    const res = await api.post("/auth/recover", { body: { email: unknown }, headers: from() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    const bad = await api.post("/auth/recover", { body: { email: "not an address" }, headers: from() });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("invalid_email");
    const missing = await api.post("/auth/recover", { body: {}, headers: from() });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe("invalid_input");
    await emailsSettled(server.databaseUrl);
    expect(smtp.to(unknown)).toEqual([]);
  });

  it("the link works once, within the hour, and ends every other session; the old password stops working", async () => {
    const a = await account("reset");
    const other = await signIn(a.email, PASSWORD);
    expect(other.status).toBe(200);
    const cookie = await cookieOf(other.body.access_token);
    expect(await cookieSession(cookie)).not.toBeNull();

    const asked = await api.post("/auth/recover", { body: { email: a.email.toUpperCase(), lang: "de" }, headers: from() });
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({});
    const { url, token } = await linkTokenTo(a.email, "reset");
    expect(url.startsWith(`${server.url}/de/account/reset#token=`)).toBe(true);
    const mail = smtp.to(a.email).at(-1)!;
    expect(mail.subject).toBe("Neues Passwort für deine Wunschliste");
    // The link carries no account id.
    expect(url).not.toContain(a.userId);

    // The wrong type does not use it.
    const wrongType = await api.post("/auth/verify", { body: { type: "email_change", token }, headers: from() });
    expect(wrongType.status).toBe(403);
    expect(wrongType.body.error).toBe("otp_expired");

    const verified = await api.post("/auth/verify", { body: { type: "recovery", token }, headers: from() });
    expect(verified.status).toBe(200);
    expect(verified.body.token_type).toBe("bearer");
    expect(verified.body.user.email).toBe(a.email);
    const again = await api.post("/auth/verify", { body: { type: "recovery", token }, headers: from() });
    expect(again.status).toBe(403);
    expect(again.body.error).toBe("otp_expired");

    const weak = await api.put("/auth/user", { token: verified.body.access_token, body: { password: "short" }, headers: from() });
    expect(weak.status).toBe(422);
    expect(weak.body.error).toBe("weak_password");
    const set = await api.put("/auth/user", { token: verified.body.access_token, body: { password: NEW_PASSWORD }, headers: from() });
    expect(set.status).toBe(200);
    expect(set.body.email).toBe(a.email);

    // Every other session ended: access tokens, refresh tokens and the site cookie.
    expect((await api.get("/auth/user", { token: a.access })).status).toBe(401);
    expect((await api.get("/auth/user", { token: other.body.access_token })).status).toBe(401);
    const refreshed = await api.post("/auth/token?grant_type=refresh_token", { body: { refresh_token: other.body.refresh_token } });
    expect(refreshed.status).toBe(400);
    expect(refreshed.body.error).toBe("refresh_token_not_found");
    expect(await cookieSession(cookie)).toBeNull();
    // The recovery session itself goes on.
    expect((await api.get("/auth/user", { token: verified.body.access_token })).status).toBe(200);

    expect((await signIn(a.email, PASSWORD)).status).toBe(400);
    expect((await signIn(a.email, NEW_PASSWORD)).status).toBe(200);
  });

  it("an expired link is 403 otp_expired; a made-up token too", async () => {
    const a = await account("expired");
    await api.post("/auth/recover", { body: { email: a.email }, headers: from() });
    const { token } = await linkTokenTo(a.email, "reset");
    await sql(server.databaseUrl, `UPDATE "AccountToken" SET "expiresAt" = ? WHERE "userId" = ?`, [
      server.databaseUrl.startsWith("file:") ? Date.now() - 1000 : new Date(Date.now() - 1000),
      a.userId,
    ]);
    const res = await api.post("/auth/verify", { body: { type: "recovery", token }, headers: from() });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe("otp_expired");
    const forged = await api.post("/auth/verify", { body: { type: "recovery", token: "A".repeat(43) }, headers: from() });
    expect(forged.status).toBe(403);
    const bad = await api.post("/auth/verify", { body: { type: "magiclink", token }, headers: from() });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("invalid_input");
  });

  it("over the per-recipient quota recover still answers 200 {} and sends nothing more", async () => {
    const a = await account("quota");
    for (let i = 0; i < RECIPIENT_CAP + 2; i++) {
      const res = await api.post("/auth/recover", { body: { email: a.email }, headers: from() });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
    }
    await emailsSettled(server.databaseUrl);
    expect(smtp.to(a.email).length).toBe(RECIPIENT_CAP);
  });
});

describe("PUT /auth/user", () => {
  it("changing the password needs the current one; other sessions end, this one stays", async () => {
    const a = await account("change");
    const other = await signIn(a.email, PASSWORD);
    const missing = await api.put("/auth/user", { token: a.access, body: { password: NEW_PASSWORD }, headers: from() });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe("current_password_required");
    const wrong = await api.put("/auth/user", { token: a.access, body: { password: NEW_PASSWORD, current_password: "not it at all" }, headers: from() });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe("invalid_credentials");
    const ok = await api.put("/auth/user", { token: a.access, body: { password: NEW_PASSWORD, current_password: PASSWORD }, headers: from() });
    expect(ok.status).toBe(200);
    expect((await api.get("/auth/user", { token: a.access })).status).toBe(200);
    expect((await api.get("/auth/user", { token: other.body.access_token })).status).toBe(401);
    expect((await signIn(a.email, NEW_PASSWORD)).status).toBe(200);
  });

  it("a guest may set a display name but has no password or address to change (403 account_required)", async () => {
    const guest = await api.anonymousUser();
    const pw = await api.put("/auth/user", { token: guest.accessToken, body: { password: NEW_PASSWORD }, headers: from() });
    expect(pw.status).toBe(403);
    expect(pw.body.error).toBe("account_required");
    const email = await api.put("/auth/user", { token: guest.accessToken, body: { email: address("guest") }, headers: from() });
    expect(email.status).toBe(403);
    expect(email.body.error).toBe("account_required");
    const name = await api.put("/auth/user", { token: guest.accessToken, body: { data: { display_name: "  Gast  " } }, headers: from() });
    expect(name.status).toBe(200);
    expect(name.body.user_metadata).toEqual({ display_name: "Gast" });
    expect((await api.put("/auth/user", { body: { data: { display_name: "x" } } })).status).toBe(401);
  });

  it("display name: set at sign-up, changed, cleared; bounded and without control characters", async () => {
    const a = await account("named", { display_name: "  Anna B.  " });
    expect(a.body.user.user_metadata).toEqual({ display_name: "Anna B." });
    const long = await api.put("/auth/user", { token: a.access, body: { data: { display_name: "x".repeat(61) } }, headers: from() });
    expect(long.status).toBe(400);
    expect(long.body.error).toBe("invalid_display_name");
    for (const bad of ["Anna\nB", "Anna\u202eB", "Anna\u0007"]) {
      const res = await api.put("/auth/user", { token: a.access, body: { data: { display_name: bad } }, headers: from() });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("invalid_display_name");
    }
    const signup = await api.post("/auth/signup", { body: { email: address("bad"), password: PASSWORD, data: { display_name: "a\tb" } }, headers: from() });
    expect(signup.status).toBe(400);
    expect(signup.body.error).toBe("invalid_display_name");
    const set = await api.put("/auth/user", { token: a.access, body: { data: { display_name: "Ännchen 🎁" } }, headers: from() });
    expect(set.body.user_metadata).toEqual({ display_name: "Ännchen 🎁" });
    expect((await api.get("/auth/user", { token: a.access })).body.user_metadata).toEqual({ display_name: "Ännchen 🎁" });
    const cleared = await api.put("/auth/user", { token: a.access, body: { data: { display_name: "" } }, headers: from() });
    expect(cleared.body.user_metadata).toEqual({});
  });

  it("changing the address needs the current password and mails the new one; the link switches it once; taken addresses are 422, or 409 when taken meanwhile", async () => {
    const a = await account("old");
    const taken = await account("taken");
    const invalid = await api.put("/auth/user", { token: a.access, body: { email: "nope", current_password: PASSWORD }, headers: from() });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toBe("invalid_email");
    const exists = await api.put("/auth/user", { token: a.access, body: { email: taken.email, current_password: PASSWORD }, headers: from() });
    expect(exists.status).toBe(422);
    expect(exists.body.error).toBe("email_exists");

    const next = address("new");
    // A stolen session must not change the address: the current password is needed.
    const without = await api.put("/auth/user", { token: a.access, body: { email: next }, headers: from() });
    expect(without.status).toBe(400);
    expect(without.body.error).toBe("current_password_required");
    const wrong = await api.put("/auth/user", { token: a.access, body: { email: next, current_password: "not it at all" }, headers: from() });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe("invalid_credentials");
    await emailsSettled(server.databaseUrl);
    expect(smtp.to(next)).toEqual([]);
    const asked = await api.put("/auth/user", { token: a.access, body: { email: next, lang: "en", current_password: PASSWORD }, headers: from() });
    expect(asked.status).toBe(200);
    expect(asked.body.email).toBe(a.email);
    expect(asked.body.new_email).toBe(next);
    const { url, token } = await linkTokenTo(next, "confirm-email");
    expect(url.startsWith(`${server.url}/en/account/confirm-email#token=`)).toBe(true);
    expect(smtp.to(a.email)).toEqual([]);
    const verified = await api.post("/auth/verify", { body: { type: "email_change", token }, headers: from() });
    expect(verified.status).toBe(200);
    expect(verified.body.user.email).toBe(next);
    expect((await api.post("/auth/verify", { body: { type: "email_change", token }, headers: from() })).body.error).toBe("otp_expired");
    expect((await signIn(next, PASSWORD)).status).toBe(200);
    expect((await signIn(a.email, PASSWORD)).status).toBe(400);

    // Someone signs up with the address before the link is opened.
    const raced = address("raced");
    expect((await api.put("/auth/user", { token: a.access, body: { email: raced, current_password: PASSWORD }, headers: from() })).status).toBe(200);
    const racedLink = await linkTokenTo(raced, "confirm-email");
    const squatter = await api.post("/auth/signup", { body: { email: raced, password: PASSWORD }, headers: from() });
    expect(squatter.status).toBe(200);
    const conflict = await api.post("/auth/verify", { body: { type: "email_change", token: racedLink.token }, headers: from() });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error).toBe("email_exists");
  });

  it("confirmation e-mails to a new address count against its quota: 429 too_many_requests", async () => {
    const target = address("popular");
    const answers = [];
    for (let i = 0; i < RECIPIENT_CAP + 1; i++) {
      const a = await account("asker");
      answers.push(await api.put("/auth/user", { token: a.access, body: { email: target, current_password: PASSWORD }, headers: from() }));
    }
    expect(answers.slice(0, RECIPIENT_CAP).map((r) => r.status)).toEqual(Array(RECIPIENT_CAP).fill(200));
    expect(answers.at(-1)!.status).toBe(429);
    expect(answers.at(-1)!.body.error).toBe("too_many_requests");
    await emailsSettled(server.databaseUrl);
    expect(smtp.to(target).length).toBe(RECIPIENT_CAP);
  });
});
