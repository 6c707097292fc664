// The consumer's own account (SPEC 7.6): profile, preferences,
// deletion; and the user token every consumer route requires.
import { describe, expect, it } from "vitest";
import { failWrites, sql } from "../support/sql.ts";
import { addManualItem, consumerServer, createList, makeFriends } from "./support.ts";

const t = consumerServer();

describe("every consumer route needs a user token", () => {
  const routes: Array<[string, string]> = [
    ["GET", "/account"],
    ["PATCH", "/account"],
    ["DELETE", "/account"],
    ["GET", "/friends"],
    ["GET", "/friends/requests"],
    ["POST", "/friends/requests"],
    ["POST", "/friends/requests/1/accept"],
    ["POST", "/friends/requests/1/decline"],
    ["DELETE", "/friends/requests/1"],
    ["POST", "/friends/invites"],
    ["POST", "/friends/invites/abc/accept"],
    ["DELETE", "/friends/someone"],
    ["GET", "/notifications"],
    ["POST", "/notifications/read-all"],
    ["POST", "/notifications/1/read"],
    ["DELETE", "/notifications/1"],
    ["POST", "/feedback/ideas"],
    ["POST", "/feedback/ratings"],
  ];
  it.each(routes)("%s %s answers 401 unauthorized without one, or with a bad one", async (method, path) => {
    const none = await t.api.request(method, path, { body: method === "GET" ? undefined : {} });
    expect(none.status).toBe(401);
    expect(none.body.error).toBe("unauthorized");
    const bad = await t.api.request(method, path, { token: "not-a-token", body: method === "GET" ? undefined : {} });
    expect(bad.status).toBe(401);
    expect(bad.body.error).toBe("unauthorized");
  });
});

describe("GET /account", () => {
  it("shows an anonymous user's profile with the defaults", async () => {
    const user = await t.user();
    const res = await t.api.get("/account", { token: user.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      account: {
        id: user.userId,
        email: null,
        displayName: null,
        username: null,
        avatarUrl: null,
        isAnonymous: true,
        isPremium: false,
        spoilerProtection: true,
        createdAt: expect.any(String),
      },
    });
  });

  it("shows the e-mail address of an e-mail account", async () => {
    const user = await t.emailUser();
    const res = await t.api.get("/account", { token: user.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.account).toMatchObject({ id: user.userId, email: user.email, isAnonymous: false });
  });
});

describe("PATCH /account", () => {
  it("changes the profile fields sent and leaves the others; null or blank clears", async () => {
    const user = await t.user();
    const first = await t.api.request("PATCH", "/account", {
      token: user.accessToken,
      body: { displayName: "  Alex  ", username: `Alex_${user.userId.slice(0, 8)}`, avatarUrl: "https://img.example.com/a.png" },
    });
    expect(first.status).toBe(200);
    expect(first.body.ok).toBe(true);
    expect(first.body.account).toMatchObject({
      displayName: "Alex",
      username: `alex_${user.userId.slice(0, 8)}`.toLowerCase(),
      avatarUrl: "https://img.example.com/a.png",
    });

    const second = await t.api.request("PATCH", "/account", { token: user.accessToken, body: { avatarUrl: "/media/images/me.webp" } });
    expect(second.status).toBe(200);
    expect(second.body.account).toMatchObject({ displayName: "Alex", avatarUrl: "/media/images/me.webp" });

    const cleared = await t.api.request("PATCH", "/account", { token: user.accessToken, body: { displayName: " ", username: null, avatarUrl: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.account).toMatchObject({ displayName: null, username: null, avatarUrl: null });
    expect((await t.api.get("/account", { token: user.accessToken })).body.account).toEqual(cleared.body.account);
  });

  it("an empty body changes nothing and answers the profile", async () => {
    const user = await t.user();
    const res = await t.api.request("PATCH", "/account", { token: user.accessToken, body: {} });
    expect(res.status).toBe(200);
    expect(res.body.account.id).toBe(user.userId);
  });

  it("switches spoiler protection off and on", async () => {
    const user = await t.user();
    const off = await t.api.request("PATCH", "/account", { token: user.accessToken, body: { spoilerProtection: false } });
    expect(off.status).toBe(200);
    expect(off.body.account.spoilerProtection).toBe(false);
    expect((await t.api.get("/account", { token: user.accessToken })).body.account.spoilerProtection).toBe(false);
    const on = await t.api.request("PATCH", "/account", { token: user.accessToken, body: { spoilerProtection: true } });
    expect(on.body.account.spoilerProtection).toBe(true);
  });

  it.each([
    [{ username: "a" }, "invalid_username"],
    [{ username: "has space" }, "invalid_username"],
    [{ username: "bang!" }, "invalid_username"],
    [{ username: "-dash" }, "invalid_username"],
    [{ username: 42 }, "invalid_username"],
    [{ displayName: "x".repeat(81) }, "invalid_display_name"],
    [{ displayName: 7 }, "invalid_display_name"],
    [{ avatarUrl: "javascript:alert(1)" }, "invalid_avatar_url"],
    [{ avatarUrl: "/etc/passwd" }, "invalid_avatar_url"],
    [{ spoilerProtection: "no" }, "invalid_input"],
  ])("rejects %j with 400 %s and changes nothing", async (body, code) => {
    const user = await t.user();
    const res = await t.api.request("PATCH", "/account", { token: user.accessToken, body });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(code);
    expect((await t.api.get("/account", { token: user.accessToken })).body.account).toMatchObject({
      displayName: null,
      username: null,
      avatarUrl: null,
      spoilerProtection: true,
    });
  });

  it("a username someone else has is 409 username_taken, whatever its case", async () => {
    const a = await t.user();
    const b = await t.user();
    const name = `taken-${a.userId.slice(0, 8)}`;
    expect((await t.api.request("PATCH", "/account", { token: a.accessToken, body: { username: name } })).status).toBe(200);
    const res = await t.api.request("PATCH", "/account", { token: b.accessToken, body: { username: name.toUpperCase(), displayName: "B" } });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("username_taken");
    expect((await t.api.get("/account", { token: b.accessToken })).body.account).toMatchObject({ username: null, displayName: null });
    // Keeping one's own username is no conflict.
    expect((await t.api.request("PATCH", "/account", { token: a.accessToken, body: { username: name } })).status).toBe(200);
  });

  it("a database failure is 500 update_failed", async () => {
    const user = await t.user();
    await failWrites(t.server.databaseUrl, "User", "UPDATE", "id", user.userId);
    const res = await t.api.request("PATCH", "/account", { token: user.accessToken, body: { displayName: "Nope" } });
    expect(res.status).toBe(500);
    expect(res.body.error).toBe("update_failed");
  });
});

describe("DELETE /account", () => {
  it("removes the user's lists, memberships, friends and requests, ends the sessions, and leaves others' lists alone", async () => {
    const { api } = t;
    const me = await t.emailUser();
    const other = await t.user();
    const friend = await t.user();
    const pendingTo = await t.user();

    // My lists, one public with an item.
    const mine = await createList(api, me, { name: "Mine", public: true });
    await addManualItem(api, me, mine, "My teapot");
    await createList(api, me, { name: "Second" });
    // I collaborate on someone else's list and added an item there.
    const theirs = await createList(api, other, { name: "Theirs", public: true });
    expect((await api.post(`/hosted/public/lists/${theirs}/link`, { token: me.accessToken })).status).toBe(200);
    expect((await api.post(`/hosted/lists/${theirs}/collaborators`, { token: other.accessToken, body: { userId: me.userId } })).status).toBe(200);
    const theirItem = await addManualItem(api, me, theirs, "Gift I added");
    // A friend, a pending request, an invite code, feedback.
    await makeFriends(api, me, friend);
    expect((await api.post("/friends/requests", { token: me.accessToken, body: { friendId: pendingTo.userId } })).status).toBe(200);
    expect((await api.post("/friends/invites", { token: me.accessToken })).status).toBe(200);
    const idea = await api.post("/feedback/ideas", { token: me.accessToken, body: { idea: "More colours" } });
    expect(idea.status).toBe(201);

    const res = await api.delete("/account", { token: me.accessToken });
    expect(res.status).toBe(200);
    // Friends: `other` (through the follow) and `friend`.
    expect(res.body).toEqual({ ok: true, deleted: { lists: 2, memberships: 1, friends: 2 } });

    // The access token stops at once, the refresh token and the password are gone.
    const after = await api.get("/account", { token: me.accessToken });
    expect(after.status).toBe(401);
    expect(after.body.error).toBe("unauthorized");
    expect((await api.post("/hosted/lists", { token: me.accessToken })).status).toBe(401);
    expect((await api.post("/auth/token?grant_type=refresh_token", { body: { refresh_token: me.refreshToken } })).status).toBe(400);
    expect((await api.post("/auth/token?grant_type=password", { body: { email: me.email, password: me.password } })).status).toBe(400);

    // My list is gone; theirs stays with the item I added, now without an adder.
    expect((await api.get(`/hosted/public/lists/${mine}`)).status).toBe(404);
    const theirItems = await api.get(`/hosted/lists/${theirs}/items`, { token: other.accessToken });
    expect(theirItems.status).toBe(200);
    expect(theirItems.body.products.map((p: { item_id: number }) => p.item_id)).toEqual([theirItem]);
    const db = t.server.databaseUrl;
    expect(await sql(db, `SELECT "addedByUserId" FROM "ListItem" WHERE id = ?`, [theirItem])).toEqual([{ addedByUserId: null }]);
    expect(await sql(db, `SELECT 1 FROM "Wishlist" WHERE "ownerId" = ?`, [me.userId])).toEqual([]);
    expect(await sql(db, `SELECT 1 FROM "WishlistMember" WHERE "userId" = ?`, [me.userId])).toEqual([]);
    expect(await sql(db, `SELECT 1 FROM "RefreshToken" r JOIN "AuthSession" s ON s.id = r."sessionId" WHERE s."userId" = ?`, [me.userId])).toEqual([]);
    expect(await sql(db, `SELECT 1 FROM "AuthSession" WHERE "userId" = ? AND "revokedAt" IS NULL`, [me.userId])).toEqual([]);
    expect(await sql(db, `SELECT 1 FROM "FriendInvite" WHERE "userId" = ?`, [me.userId])).toEqual([]);
    expect(await sql(db, `SELECT 1 FROM "Product" WHERE "createdByUserId" = ?`, [me.userId])).toEqual([]);
    // My own manual product went with my list; the one on their list stays.
    expect(await sql(db, `SELECT 1 FROM "Product" p JOIN "ProductLocalization" l ON l."productId" = p.id WHERE l.title = 'My teapot'`)).toEqual([]);
    // Feedback stays, without me.
    expect(await sql(db, `SELECT "userId" FROM "Feedback" WHERE id = ?`, [idea.body.id])).toEqual([{ userId: null }]);
    // The row left behind holds nothing personal.
    const [tomb] = await sql<Record<string, unknown>>(db, `SELECT email, "passwordHash", "displayName", "deletedAt" FROM "User" WHERE id = ?`, [me.userId]);
    expect(tomb).toMatchObject({ email: null, passwordHash: null, displayName: null });
    expect(tomb!.deletedAt).not.toBeNull();

    // Others no longer see me as a friend or a pending request; no one can befriend the deleted account.
    expect((await api.get("/friends", { token: friend.accessToken })).body.friends).toEqual([]);
    expect((await api.get("/friends", { token: other.accessToken })).body.friends).toEqual([]);
    expect((await api.get("/friends/requests", { token: pendingTo.accessToken })).body.incoming).toEqual([]);
    const notifications = await api.get("/notifications", { token: pendingTo.accessToken });
    expect(notifications.body.notifications).toEqual([]);
    const request = await api.post("/friends/requests", { token: friend.accessToken, body: { friendId: me.userId } });
    expect(request.status).toBe(404);
    expect(request.body.error).toBe("not_found");

    // The e-mail address is free again.
    expect((await api.post("/auth/signup", { body: { email: me.email, password: "another password" } })).status).toBe(200);
  });

  it("a database failure is 500 delete_failed, and nothing is removed", async () => {
    const me = await t.user();
    const list = await createList(t.api, me, { name: "Kept" });
    await failWrites(t.server.databaseUrl, "Wishlist", "DELETE", "ownerId", me.userId);
    const res = await t.api.delete("/account", { token: me.accessToken });
    expect(res.status).toBe(500);
    expect(res.body.error).toBe("delete_failed");
    expect((await t.api.get("/account", { token: me.accessToken })).status).toBe(200);
    expect((await t.api.get(`/hosted/lists/${list}`, { token: me.accessToken })).status).toBe(200);
  });

  it("a signed-out session cannot delete the account (the session is read live)", async () => {
    const me = await t.user();
    expect((await t.api.post("/auth/logout", { token: me.accessToken })).status).toBe(204);
    const res = await t.api.delete("/account", { token: me.accessToken });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("unauthorized");
    expect(await sql(t.server.databaseUrl, `SELECT "deletedAt" FROM "User" WHERE id = ?`, [me.userId])).toEqual([{ deletedAt: null }]);
  });
});

describe("an anonymous account moving to a provider account", () => {
  it("takes its notifications, friend requests, invite code, preferences and feedback along", async () => {
    const { api } = t;
    const anon = await t.user();
    const asker = await t.user();
    const asked = await t.user();
    const friendOfNew = await t.user();
    const provider = await t.emailUser();
    // The anonymous account: an incoming request (with its notification), an outgoing one,
    // one to someone the provider account is already friends with, an invite code, preferences, feedback.
    const incoming = (await api.post("/friends/requests", { token: asker.accessToken, body: { friendId: anon.userId } })).body.request.id;
    const outgoing = (await api.post("/friends/requests", { token: anon.accessToken, body: { friendId: asked.userId } })).body.request.id;
    await makeFriends(api, provider, friendOfNew);
    const settled = (await api.post("/friends/requests", { token: anon.accessToken, body: { friendId: friendOfNew.userId } })).body.request.id;
    const code = (await api.post("/friends/invites", { token: anon.accessToken })).body.code;
    await api.request("PATCH", "/account", { token: anon.accessToken, body: { spoilerProtection: false } });
    const idea = (await api.post("/feedback/ideas", { token: anon.accessToken, body: { idea: "Dark mode" } })).body.id;

    const res = await api.post("/hosted/migrate-anonymous-to-provider", {
      token: provider.accessToken,
      body: { anonymous_access_token: anon.accessToken },
    });
    expect(res.status).toBe(200);

    const requests = await api.get("/friends/requests", { token: provider.accessToken });
    expect(requests.body.incoming.map((r: { id: number }) => r.id)).toEqual([incoming]);
    expect(requests.body.incoming[0].to.id).toBe(provider.userId);
    expect(requests.body.outgoing.map((r: { id: number }) => r.id)).toEqual([outgoing]);
    const notifications = (await api.get("/notifications", { token: provider.accessToken })).body.notifications;
    expect(notifications.filter((n: { type: string }) => n.type === "friend_request")).toEqual([
      expect.objectContaining({ data: { requestId: incoming }, actor: expect.objectContaining({ id: asker.userId }) }),
    ]);
    // The asked user's request notification now names the provider account.
    const theirs = (await api.get("/notifications", { token: asked.accessToken })).body.notifications;
    expect(theirs[0].actor.id).toBe(provider.userId);
    expect(await sql(t.server.databaseUrl, `SELECT status FROM "FriendRequest" WHERE id = ?`, [settled])).toEqual([{ status: "accepted" }]);
    expect((await api.post("/friends/invites", { token: provider.accessToken })).body.code).toBe(code);
    expect((await api.get("/account", { token: provider.accessToken })).body.account.spoilerProtection).toBe(false);
    expect(await sql(t.server.databaseUrl, `SELECT "userId" FROM "Feedback" WHERE id = ?`, [idea])).toEqual([{ userId: provider.userId }]);
    // Accepting the moved request works for the provider account.
    expect((await api.post(`/friends/requests/${incoming}/accept`, { token: provider.accessToken })).status).toBe(200);
  });
});
