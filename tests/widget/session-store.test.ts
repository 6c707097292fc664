// Widget session store: POST /widget/session-store and /widget/session-restore (SPEC 4.1, 7.1).
import { beforeAll, describe, expect, it } from "vitest";
import { sharedApi } from "../support/api.ts";
import { provisioner } from "../support/provision.ts";
import { sql } from "../support/sql.ts";

let api: Awaited<ReturnType<typeof sharedApi>>;
let p: Awaited<ReturnType<typeof provisioner>>;
beforeAll(async () => {
  api = await sharedApi();
  // Also points this worker's app modules at the server's database (signing key).
  p = await provisioner(api.server);
});

async function partnerWidget() {
  const partner = await p.partner();
  const key = await p.key(partner.id);
  const widget = (body: Record<string, unknown> = {}) => initWidget(key.key, body);
  return { partnerId: partner.id, widget, first: await widget() };
}

async function initWidget(publicKey: string, body: Record<string, unknown> = {}) {
  const res = await api.post("/widget/init", {
    headers: { authorization: `Bearer ${publicKey}` },
    body: { origin: "https://shop.example.com", ...body },
  });
  expect(res.status).toBe(200);
  return { token: res.body.token as string, sid: res.body.sid as string };
}

type Widget = Awaited<ReturnType<typeof initWidget>>;

/** The widget's own sid goes into the body unless the test gives one (or passes a bare token). */
const withSid = (w: Widget | string, body: unknown) =>
  typeof w === "string" ? body : { sid: w.sid, ...(body as Record<string, unknown> | undefined) };
const store = (w: Widget | string, body: unknown) =>
  api.post("/widget/session-store", { headers: { "x-widget-token": typeof w === "string" ? w : w.token }, body: withSid(w, body) });
const restore = (w: Widget | string, body?: unknown) =>
  api.post("/widget/session-restore", { headers: { "x-widget-token": typeof w === "string" ? w : w.token }, body: withSid(w, body) });

const storedRow = async (sid: string) =>
  (await sql<{ sessionData: string; partnerId: number | null }>(
    api.server.databaseUrl,
    `SELECT "sessionData", "partnerId" FROM "WidgetSession" WHERE sid = ?`,
    [sid],
  ))[0];

const refresh = (refreshToken: string) =>
  api.post("/auth/token?grant_type=refresh_token", { body: { refresh_token: refreshToken } });

function expectError(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error).toBe(code);
}

function expectNotContaining(ciphertext: string, ...secrets: string[]) {
  const raw = Buffer.from(ciphertext.split(".")[3] ?? "", "base64url").toString("latin1");
  for (const secret of secrets) {
    expect(ciphertext).not.toContain(secret);
    expect(raw).not.toContain(secret);
  }
}

describe("store and restore", () => {
  it("stores an encrypted grant under the widget's sid; restore mints a partner-scoped shopper credential and rotates nothing", async () => {
    const { partnerId, first: w } = await partnerWidget();
    const user = await api.anonymousUser();
    const stored = await store(w, { access_token: user.accessToken, refresh_token: user.refreshToken });
    expect(stored.status).toBe(200);
    expect(stored.body).toEqual({ ok: true, sid: w.sid, new_shop: true });
    // The shopper's consent for this shop, under its verified host.
    expect(await sql(api.server.databaseUrl, `SELECT host FROM "ShopperConsent" WHERE "userId" = ? AND "partnerId" = ?`, [user.userId, partnerId])).toEqual([
      { host: "shop.example.com" },
    ]);

    const row = await storedRow(w.sid);
    expect(row.partnerId).toBe(partnerId);
    expect(row.sessionData).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expectNotContaining(row.sessionData, user.refreshToken, user.accessToken, user.accessToken.split(".")[1], user.userId);

    const restored = await restore(w);
    expect(restored.status).toBe(200);
    expect(restored.headers.get("cache-control")).toBe("no-store");
    expect(restored.body).toEqual({
      ok: true,
      session: {
        access_token: expect.any(String),
        token_type: "bearer",
        expires_in: expect.any(Number),
        expires_at: expect.any(Number),
        scope: "shopper",
        // The partner's pairwise id of the shopper, never the account id.
        user: { id: expect.stringMatching(/^ps_[\w-]{32}$/), is_anonymous: true },
      },
    });
    const shopper = restored.body.session.access_token as string;
    const pseudonym = restored.body.session.user.id as string;
    expect(shopper).not.toContain(user.userId);
    expect(Buffer.from(shopper.split(".")[1], "base64url").toString()).not.toContain(user.userId);
    expect(JSON.stringify(restored.body)).not.toContain("refresh_token");
    // The credential reads this partner's saved products, and is no account token.
    expect((await api.get("/widget/saved-products", { token: shopper, headers: { "x-widget-token": w.token } })).status).toBe(200);
    expect((await api.get("/auth/user", { token: shopper })).status).toBe(401);
    expect((await api.post("/hosted/lists", { token: shopper })).status).toBe(401);

    // Restores mint again without touching the account session: its refresh token is still unused.
    expect((await restore(w)).body.session.user.id).toBe(pseudonym);
    expect(await storedRow(w.sid)).toEqual(row);
    expect((await refresh(user.refreshToken)).status).toBe(200);
    expect((await restore(w)).body.session.user.id).toBe(pseudonym);
    // A second store on this shop is no first time.
    expect((await store(w, { access_token: user.accessToken })).body.new_shop).toBe(false);

    // Reuse detection ends the sign-in session, and with it the grant.
    expectError(await refresh(user.refreshToken), 400, "refresh_token_already_used");
    expect((await restore(w)).body).toEqual({ ok: true, session: null });
    expect(await storedRow(w.sid)).toBeUndefined();
    expect((await api.get("/widget/saved-products", { token: shopper, headers: { "x-widget-token": w.token } })).status).toBe(401);
  });

  it("a grant is made only for a shopper who saved through this partner or signed in moments ago", async () => {
    const { partnerId, first: w } = await partnerWidget();
    const user = await api.anonymousUser();
    // The anonymous sign-up is an hour old: not "moments ago" any more.
    const aged = new Date(Date.now() - 60 * 60_000).toISOString().replace("Z", "+00:00");
    await sql(api.server.databaseUrl, `UPDATE "AuthSession" SET "createdAt" = ? WHERE "userId" = ?`, [aged, user.userId]);
    expectError(await store(w, { access_token: user.accessToken }), 403, "forbidden");
    expect(await storedRow(w.sid)).toBeUndefined();
    const list = await api.post("/hosted/me/init", { token: user.accessToken });
    const saved = await api.post("/widget/save", {
      token: user.accessToken,
      headers: { "x-widget-token": w.token },
      body: { wishlistId: list.body.list.db_id, product: { url: `https://shop.example.com/products/p-${partnerId}`, title: "P" } },
    });
    expect(saved.status, saved.text).toBe(200);
    expect((await store(w, { access_token: user.accessToken })).status).toBe(200);
  });

  it("nothing stored: session null", async () => {
    const { first: w } = await partnerWidget();
    const res = await restore(w);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, session: null });
    expect((await restore(w, { sid: "never-stored-sid-0001" })).body).toEqual({ ok: true, session: null });
  });

  it("only the widget token's sid names a grant: a body naming another is refused; a later store replaces the grant", async () => {
    const { widget } = await partnerWidget();
    const a = await widget();
    const b = await widget();
    expect(a.sid).not.toBe(b.sid);
    const first = await api.anonymousUser();
    const second = await api.anonymousUser();
    // The page's own sid works; another page's, or one a page made up, binds nothing.
    expectError(await store(a, { access_token: first.accessToken, sid: b.sid }), 403, "forbidden");
    expectError(await store(a, { access_token: first.accessToken, sid: `custom-sid-${Date.now()}` }), 403, "forbidden");
    expect(await storedRow(b.sid)).toBeUndefined();
    expect((await store(a, { access_token: first.accessToken })).status).toBe(200);
    expect((await restore(b, { sid: a.sid })).body.session).toBeNull();
    const firstId = (await restore(a)).body.session.user.id;

    expect((await store(a, { access_token: second.accessToken })).status).toBe(200);
    const secondId = (await restore(a)).body.session.user.id;
    expect(secondId).toMatch(/^ps_/);
    expect(secondId).not.toBe(firstId);
  });

  it("init keeps only a sid the server minted for this partner: a page cannot choose one or bring another partner's", async () => {
    const a = await partnerWidget();
    const b = await partnerWidget();
    expect(a.first.sid).toMatch(/^[\w-]{44}$/);
    expect((await a.widget({ sid: a.first.sid })).sid).toBe(a.first.sid);
    for (const sid of [`chosen-by-the-page-${Date.now()}`, "x".repeat(44), b.first.sid, a.first.sid.slice(0, -1) + (a.first.sid.endsWith("A") ? "B" : "A")]) {
      const next = await a.widget({ sid });
      expect(next.sid).not.toBe(sid);
      expect(next.sid).toMatch(/^[\w-]{44}$/);
    }
  });

  it("the same sid given at init restores on the next page load", async () => {
    const partner = await p.partner();
    const key = await p.key(partner.id);
    const pageOne = await initWidget(key.key);
    const user = await api.anonymousUser();
    await store(pageOne, { access_token: user.accessToken, refresh_token: user.refreshToken });
    const pageTwo = await initWidget(key.key, { sid: pageOne.sid });
    expect(pageTwo.sid).toBe(pageOne.sid);
    expect((await restore(pageTwo)).body.session.user.id).toBe((await restore(pageOne)).body.session.user.id);
  });

  it("another partner's widget can neither restore nor overwrite the session", async () => {
    const a = await partnerWidget();
    const b = await partnerWidget();
    const user = await api.anonymousUser();
    await store(a.first, { access_token: user.accessToken, refresh_token: user.refreshToken });
    const before = await storedRow(a.first.sid);

    expect((await restore(b.first, { sid: a.first.sid })).body).toEqual({ ok: true, session: null });
    const intruder = await api.anonymousUser();
    const overwrite = await store(b.first, { access_token: intruder.accessToken, refresh_token: intruder.refreshToken, sid: a.first.sid });
    expectError(overwrite, 403, "forbidden");

    const after = await storedRow(a.first.sid);
    expect(after).toEqual(before);
    // A second token of partner A (the next page load, same sid) still gets it, under A's pairwise id.
    const restored = (await restore(await a.widget({ sid: a.first.sid }))).body.session;
    expect(restored.user.id).toMatch(/^ps_/);
    // B's pairwise id of the same shopper is another.
    await store(b.first, { access_token: user.accessToken });
    expect((await restore(b.first)).body.session.user.id).not.toBe(restored.user.id);
  });

  it("a stored session whose sign-in session was revoked restores as null and is deleted", async () => {
    const { first: w } = await partnerWidget();
    const user = await api.anonymousUser();
    await store(w, { access_token: user.accessToken, refresh_token: user.refreshToken });
    expect((await api.post("/auth/logout", { token: user.accessToken })).status).toBeLessThan(300);
    expect((await restore(w)).body).toEqual({ ok: true, session: null });
    expect(await storedRow(w.sid)).toBeUndefined();
  });

  it("concurrent restores of one sid do not burn the sign-in session", async () => {
    const { first: w } = await partnerWidget();
    const user = await api.anonymousUser();
    await store(w, { access_token: user.accessToken, refresh_token: user.refreshToken });
    const results = await Promise.all(Array.from({ length: 8 }, () => restore(w)));
    const pseudonym = results[0].body.session?.user.id;
    expect(pseudonym).toMatch(/^ps_/);
    for (const r of results) {
      expect(r.status).toBe(200);
      expect(r.body.session?.user.id).toBe(pseudonym);
    }
    const later = await restore(w);
    expect(later.body.session?.user.id).toBe(pseudonym);
    // The account session is untouched: its own tokens still work.
    expect((await api.get("/auth/user", { token: user.accessToken })).status).toBe(200);
    expect((await refresh(user.refreshToken)).status).toBe(200);
  });
});

describe("errors", () => {
  it("400 missing_sid without a sid in the body, even when the widget token has one (SPEC 7.1)", async () => {
    const { first } = await partnerWidget();
    const user = await api.anonymousUser();
    const tokens = { access_token: user.accessToken, refresh_token: user.refreshToken };
    expectError(await restore(first.token), 400, "missing_sid");
    expectError(await restore(first.token, {}), 400, "missing_sid");
    expectError(await store(first.token, tokens), 400, "missing_sid");
  });

  it("400 missing_sid when neither body nor widget token has a sid, or the sid is malformed", async () => {
    const { partnerId, first } = await partnerWidget();
    const { issueWidgetToken } = await import("~/domains/widget/token.server");
    const [claims] = await sql<{ id: number }>(api.server.databaseUrl, `SELECT id FROM "ApiKey" WHERE "partnerId" = ?`, [partnerId]);
    const { token: noSid } = await issueWidgetToken({
      partnerId,
      apiKeyId: claims.id,
      origin: "https://shop.example.com",
      shopId: null,
      sid: "",
      requestPlan: "trial",
    });
    const user = await api.anonymousUser();
    const tokens = { access_token: user.accessToken, refresh_token: user.refreshToken };
    expectError(await store(noSid, tokens), 400, "missing_sid");
    expectError(await restore(noSid), 400, "missing_sid");
    expectError(await restore(noSid, { sid: "" }), 400, "missing_sid");
    for (const sid of [42, { id: "x" }, "s".repeat(129)]) {
      expectError(await store(first, { ...tokens, sid }), 400, "missing_sid");
      expectError(await restore(first, { sid }), 400, "missing_sid");
    }
    // A token without a sid names no grant: a body's sid does not stand in for it.
    expectError(await store(noSid, { ...tokens, sid: "body-sid-0123456789" }), 403, "forbidden");
  });

  it("400 invalid_session without an access token, or with a refresh token of another session", async () => {
    const { first: w } = await partnerWidget();
    const user = await api.anonymousUser();
    const other = await api.anonymousUser();
    for (const body of [
      undefined,
      {},
      { refresh_token: user.refreshToken },
      { access_token: "", refresh_token: user.refreshToken },
      { access_token: user.accessToken, refresh_token: 7 },
      { access_token: user.accessToken, refresh_token: other.refreshToken },
      { access_token: user.accessToken, refresh_token: "made-up" },
    ]) {
      expectError(await store(w, body), 400, "invalid_session");
    }
    expect(await storedRow(w.sid)).toBeUndefined();
  });

  it("401 invalid_access_token when the access token is not a valid user token", async () => {
    const { first: w } = await partnerWidget();
    const user = await api.anonymousUser();
    for (const accessToken of ["garbage", w.token, user.accessToken.slice(0, -4) + "AAAA"]) {
      expectError(await store(w, { access_token: accessToken, refresh_token: user.refreshToken }), 401, "invalid_access_token");
    }
    expect(await storedRow(w.sid)).toBeUndefined();
  });

  it("403 forbidden without a valid widget token (a user token is none); 401 without the anon key", async () => {
    const { first: w } = await partnerWidget();
    const user = await api.anonymousUser();
    const body = { access_token: user.accessToken, refresh_token: user.refreshToken };
    for (const path of ["/widget/session-store", "/widget/session-restore"]) {
      expectError(await api.post(path, { body }), 403, "forbidden");
      expectError(await api.post(path, { body, headers: { "x-widget-token": "not-a-token" } }), 403, "forbidden");
      expectError(await api.post(path, { body, headers: { "x-widget-token": user.accessToken } }), 403, "forbidden");
      expectError(await api.post(path, { body, token: user.accessToken }), 403, "forbidden");
      expectError(await api.post(path, { body, noApiKey: true, headers: { "x-widget-token": w.token } }), 401, "unauthorized");
    }
    expect(await storedRow(w.sid)).toBeUndefined();
  });

  it("500 internal_error when the stored session cannot be read, and it is kept", async () => {
    const a = await partnerWidget();
    const b = await partnerWidget();
    const user = await api.anonymousUser();
    await store(a.first, { access_token: user.accessToken, refresh_token: user.refreshToken });
    await store(b.first, { access_token: user.accessToken, refresh_token: user.refreshToken });
    // Ciphertext is bound to partner and sid: copied into another row it does not decrypt.
    const { sessionData } = await storedRow(b.first.sid);
    await sql(api.server.databaseUrl, `UPDATE "WidgetSession" SET "sessionData" = ? WHERE sid = ?`, [sessionData, a.first.sid]);
    const res = await restore(a.first);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: "internal_error", message: expect.any(String) });
    expect((await storedRow(a.first.sid)).sessionData).toBe(sessionData);
  });
});

describe("consent and what a shopper credential may do", () => {
  const saveWith = (w: Widget, token: string, wishlistId: number, slug: string) =>
    api.post("/widget/save", {
      token,
      headers: { "x-widget-token": w.token },
      body: { wishlistId, product: { url: `https://shop.example.com/products/${slug}`, title: slug } },
    });

  it("\"Not on this shop\" (DELETE) ends the grant and every shopper credential of the pair at once; storing again consents again", async () => {
    const { partnerId, first: w } = await partnerWidget();
    const user = await api.anonymousUser();
    expect((await store(w, { access_token: user.accessToken })).body.new_shop).toBe(true);
    const shopper = (await restore(w)).body.session.access_token as string;
    const read = () => api.get("/widget/saved-products", { token: shopper, headers: { "x-widget-token": w.token } });
    expect((await read()).status).toBe(200);

    // Only the account may withdraw: a shopper credential is refused.
    expectError(await api.delete("/widget/session-store", { token: shopper, headers: { "x-widget-token": w.token } }), 401, "unauthorized");
    const withdrawn = await api.delete("/widget/session-store", { token: user.accessToken, headers: { "x-widget-token": w.token } });
    expect(withdrawn.status, withdrawn.text).toBe(200);
    expect(withdrawn.body).toEqual({ ok: true });
    expect(await storedRow(w.sid)).toBeUndefined();
    expect(await sql(api.server.databaseUrl, `SELECT 1 FROM "ShopperConsent" WHERE "userId" = ? AND "partnerId" = ?`, [user.userId, partnerId])).toEqual([]);
    expectError(await read(), 401, "unauthorized");
    expect((await restore(w)).body.session).toBeNull();

    expect((await store(w, { access_token: user.accessToken })).body.new_shop).toBe(true);
    expect((await restore(w)).body.session).not.toBeNull();
  });

  it("saves only into the default list or a list made through its partner; every other list of the account is 403 invalid_wishlist", async () => {
    const { first: w } = await partnerWidget();
    const user = await api.anonymousUser();
    const defaultList = (await api.post("/hosted/me/init", { token: user.accessToken })).body.list.db_id as number;
    const named = await api.post("/hosted/me/lists", { token: user.accessToken, body: { name: "Medical supplies" } });
    expect(named.status).toBe(200);
    await store(w, { access_token: user.accessToken });
    const shopper = (await restore(w)).body.session.access_token as string;

    expectError(await saveWith(w, shopper, named.body.list.db_id, "planted"), 403, "invalid_wishlist");
    expect((await saveWith(w, shopper, defaultList, "wanted")).status).toBe(200);
    // The account itself (the dialog) saves anywhere.
    expect((await saveWith(w, user.accessToken, named.body.list.db_id, "mine")).status).toBe(200);
    const items = await api.get(`/hosted/lists/${named.body.token}/items`, { token: user.accessToken });
    expect(items.body.products.map((p: { title: string }) => p.title)).toEqual(["mine"]);
    // A list made in this shop's dialog (with its widget token) is this shop's too.
    const throughShop = await api.post("/hosted/me/lists", { token: user.accessToken, headers: { "x-widget-token": w.token }, body: { name: "From this shop" } });
    expect(throughShop.status, throughShop.text).toBe(200);
    expect((await saveWith(w, shopper, throughShop.body.list.db_id, "shop-list")).status).toBe(200);
    // Another partner's widget token names another shop: its page may not save there.
    const other = await partnerWidget();
    await store(other.first, { access_token: user.accessToken });
    const otherShopper = (await restore(other.first)).body.session.access_token as string;
    expectError(await saveWith(other.first, otherShopper, throughShop.body.list.db_id, "elsewhere"), 403, "invalid_wishlist");
    expectError(await api.post("/hosted/me/lists", { token: user.accessToken, headers: { "x-widget-token": "forged" }, body: { name: "x" } }), 403, "forbidden");
  });
});

describe("init with the page's saved state (`saved: true`)", () => {
  const saveThrough = async (w: Widget, accessToken: string, listId: number, url: string) => {
    const res = await api.post("/widget/save", { token: accessToken, headers: { "x-widget-token": w.token, origin: "https://shop.example.com" }, body: { wishlistId: listId, product: { url, title: "A thing" } } });
    expect(res.status, res.text).toBe(200);
    return res.body.item_id as number;
  };
  const initSaved = (publicKey: string, body: Record<string, unknown>) =>
    api.post("/widget/init", { headers: { authorization: `Bearer ${publicKey}` }, body: { origin: "https://shop.example.com", saved: true, ...body } });

  it("answers the grant's shopper credential and the items saved through this partner, as restore and saved-products would; nothing without a grant, a new sid, or the flag", async () => {
    const partner = await p.partner();
    const key = (await p.key(partner.id)).key as string;
    const w = await initWidget(key);
    const user = await api.anonymousUser();
    const list = await api.post("/hosted/me/lists", { token: user.accessToken, body: { name: "Wishes" } });
    const older = await saveThrough(w, user.accessToken, list.body.list.db_id, "https://shop.example.com/products/older");
    const newer = await saveThrough(w, user.accessToken, list.body.list.db_id, "https://shop.example.com/products/newer");
    // Saved through another partner: not this page's.
    const other = await partnerWidget();
    await saveThrough(other.first, user.accessToken, list.body.list.db_id, "https://shop.example.com/products/elsewhere");

    // No grant yet for the sid: nothing saved, no credential.
    const before = await initSaved(key, { sid: w.sid });
    expect(before.status, before.text).toBe(200);
    expect(before.body).toMatchObject({ sid: w.sid, session: null, saved: [] });

    expect((await store(w, { access_token: user.accessToken })).status).toBe(200);
    const res = await initSaved(key, { sid: w.sid });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body.saved).toEqual([
      { url: "https://shop.example.com/products/newer", item_id: newer },
      { url: "https://shop.example.com/products/older", item_id: older },
    ]);
    expect(res.body.session).toMatchObject({ token_type: "bearer", scope: "shopper", user: { is_anonymous: true } });
    // The credential is the one restore would mint: it reads the same saved products.
    const read = await api.get("/widget/saved-products", { token: res.body.session.access_token, headers: { "x-widget-token": res.body.token, origin: "https://shop.example.com" } });
    expect(read.status, read.text).toBe(200);
    expect(read.body.products.map((x: { item_id: number }) => x.item_id)).toEqual([newer, older]);

    // Another partner's init with this sid gets a new sid, and nothing of this grant.
    const foreign = await initSaved((await p.key(other.partnerId)).key as string, { sid: w.sid });
    expect(foreign.body.sid).not.toBe(w.sid);
    expect(foreign.body).toMatchObject({ session: null, saved: [] });
    // Without the flag, the answer is SPEC 2.5's as before.
    const plain = await api.post("/widget/init", { headers: { authorization: `Bearer ${key}` }, body: { origin: "https://shop.example.com", sid: w.sid } });
    expect(plain.body).not.toHaveProperty("saved");
    expect(plain.body).not.toHaveProperty("session");
  });
});
