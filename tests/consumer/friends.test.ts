// Friends (SPEC 7.6): requests, invite codes, unfriending, the
// list; friends made by following a shared list (SPEC 4.3) are the same set.
import { describe, expect, it } from "vitest";
import { failWrites, sql } from "../support/sql.ts";
import { consumerServer, createList, makeFriends, type Consumer } from "./support.ts";

const t = consumerServer();

const send = (from: Consumer, to: Consumer | string) =>
  t.api.post("/friends/requests", { token: from.accessToken, body: { friendId: typeof to === "string" ? to : to.userId } });
const friendIds = async (user: Consumer) =>
  ((await t.api.get("/friends", { token: user.accessToken })).body.friends as Array<{ id: string }>).map((f) => f.id).sort();
const answer = (user: Consumer, id: number | string, verb: "accept" | "decline") =>
  t.api.post(`/friends/requests/${id}/${verb}`, { token: user.accessToken });
const cancel = (user: Consumer, id: number | string) => t.api.delete(`/friends/requests/${id}`, { token: user.accessToken });

describe("POST /friends/requests", () => {
  it("sends a pending request both sides see, idempotently", async () => {
    const a = await t.user();
    const b = await t.user();
    await t.api.request("PATCH", "/account", { token: b.accessToken, body: { displayName: "Bea" } });
    const res = await send(a, b);
    expect(res.status).toBe(200);
    // The body's shape is the route's response schema, which the server checks on every answer (CHECK_RESPONSES).
    expect(res.body.status).toBe("pending");
    expect(res.body.request).toMatchObject({ status: "pending", from: { id: a.userId }, to: { id: b.userId, displayName: "Bea" }, respondedAt: null });
    const again = await send(a, b);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);

    const mine = await t.api.get("/friends/requests", { token: a.accessToken });
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({ incoming: [], outgoing: [res.body.request] });
    const theirs = await t.api.get("/friends/requests", { token: b.accessToken });
    expect(theirs.body).toEqual({ incoming: [res.body.request], outgoing: [] });
    // Nobody is a friend yet.
    expect(await friendIds(a)).toEqual([]);
  });

  it("asking someone who already asked you makes you friends", async () => {
    const a = await t.user();
    const b = await t.user();
    const first = await send(a, b);
    const res = await send(b, a);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("friends");
    expect(res.body.request).toMatchObject({ id: first.body.request.id, status: "accepted", respondedAt: expect.any(String) });
    expect(await friendIds(a)).toEqual([b.userId]);
    expect(await friendIds(b)).toEqual([a.userId]);
    // Friends already: the answer says so and writes nothing.
    const again = await send(a, b);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ status: "friends", request: null });
  });

  it.each([[{}], [{ friendId: "" }], [{ friendId: "   " }], [{ friendId: null }]])("400 missing_friend_id for %j", async (body) => {
    const a = await t.user();
    const res = await t.api.post("/friends/requests", { token: a.accessToken, body });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("missing_friend_id");
  });

  it("400 self_request to yourself, 404 not_found to nobody", async () => {
    const a = await t.user();
    const self = await send(a, a);
    expect(self.status).toBe(400);
    expect(self.body.error).toBe("self_request");
    const nobody = await send(a, "00000000-0000-0000-0000-000000000000");
    expect(nobody.status).toBe(404);
    expect(nobody.body.error).toBe("not_found");
  });

  it("a database failure is 500 insert_failed", async () => {
    const a = await t.user();
    const b = await t.user();
    await failWrites(t.server.databaseUrl, "FriendRequest", "INSERT", "senderId", a.userId);
    const res = await send(a, b);
    expect(res.status).toBe(500);
    expect(res.body.error).toBe("insert_failed");
    expect((await t.api.get("/friends/requests", { token: b.accessToken })).body.incoming).toEqual([]);
  });
});

describe("answering a request", () => {
  it("the recipient accepts: both are friends, once", async () => {
    const a = await t.user();
    const b = await t.user();
    const { id } = (await send(a, b)).body.request;
    const res = await answer(b, id, "accept");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, request: { id, status: "accepted", respondedAt: expect.any(String) } });
    expect(await friendIds(a)).toEqual([b.userId]);
    expect(await friendIds(b)).toEqual([a.userId]);
    expect((await t.api.get("/friends/requests", { token: b.accessToken })).body).toEqual({ incoming: [], outgoing: [] });
    for (const verb of ["accept", "decline"] as const) {
      const again = await answer(b, id, verb);
      expect(again.status).toBe(404);
      expect(again.body.error).toBe("not_found_or_not_pending");
    }
  });

  it("the recipient declines: no friendship, and the sender may ask again later", async () => {
    const a = await t.user();
    const b = await t.user();
    const { id } = (await send(a, b)).body.request;
    const res = await answer(b, id, "decline");
    expect(res.status).toBe(200);
    expect(res.body.request).toMatchObject({ id, status: "declined" });
    expect(await friendIds(a)).toEqual([]);
    const accept = await answer(b, id, "accept");
    expect(accept.status).toBe(404);
    expect(accept.body.error).toBe("not_found_or_not_pending");
    const again = await send(a, b);
    expect(again.body.status).toBe("pending");
    expect(again.body.request.id).not.toBe(id);
  });

  it("only the recipient may answer: the sender and strangers get 403 forbidden and no data", async () => {
    const a = await t.user();
    const b = await t.user();
    const stranger = await t.user();
    const { id } = (await send(a, b)).body.request;
    for (const who of [a, stranger]) {
      for (const verb of ["accept", "decline"] as const) {
        const res = await answer(who, id, verb);
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ error: "forbidden", message: expect.any(String) });
      }
    }
    expect((await t.api.get("/friends/requests", { token: b.accessToken })).body.incoming).toHaveLength(1);
    expect((await t.api.get("/friends/requests", { token: stranger.accessToken })).body).toEqual({ incoming: [], outgoing: [] });
  });

  it("unknown or malformed ids are 404 not_found_or_not_pending", async () => {
    const a = await t.user();
    for (const id of ["999999999", "abc", "0", "-1", "1.5"]) {
      for (const res of [await answer(a, id, "accept"), await answer(a, id, "decline"), await cancel(a, id)]) {
        expect(res.status).toBe(404);
        expect(res.body.error).toBe("not_found_or_not_pending");
      }
    }
  });

  it("database failures are 500 update_failed", async () => {
    const a = await t.user();
    const b = await t.user();
    const first = (await send(a, b)).body.request.id;
    await failWrites(t.server.databaseUrl, "FriendRequest", "UPDATE", "recipientId", b.userId);
    for (const res of [await answer(b, first, "accept"), await answer(b, first, "decline"), await cancel(a, first)]) {
      expect(res.status).toBe(500);
      expect(res.body.error).toBe("update_failed");
    }
    expect(await friendIds(a)).toEqual([]);
  });
});

describe("DELETE /friends/requests/{id} (cancel)", () => {
  it("the sender cancels; the recipient can no longer accept", async () => {
    const a = await t.user();
    const b = await t.user();
    const { id } = (await send(a, b)).body.request;
    const res = await cancel(a, id);
    expect(res.status).toBe(200);
    expect(res.body.request).toMatchObject({ id, status: "cancelled" });
    expect((await t.api.get("/friends/requests", { token: b.accessToken })).body.incoming).toEqual([]);
    const accept = await answer(b, id, "accept");
    expect(accept.status).toBe(404);
    expect(accept.body.error).toBe("not_found_or_not_pending");
    const again = await cancel(a, id);
    expect(again.status).toBe(404);
    expect(again.body.error).toBe("not_found_or_not_pending");
  });

  it("only the sender may cancel: 403 forbidden for the recipient and strangers", async () => {
    const a = await t.user();
    const b = await t.user();
    const stranger = await t.user();
    const { id } = (await send(a, b)).body.request;
    for (const who of [b, stranger]) {
      const res = await cancel(who, id);
      expect(res.status).toBe(403);
      expect(res.body.error).toBe("forbidden");
      expect(res.body.request).toBeUndefined();
    }
    expect((await t.api.get("/friends/requests", { token: a.accessToken })).body.outgoing).toHaveLength(1);
  });
});

describe("invite codes", () => {
  it("one code per user; accepting it makes both friends, idempotently", async () => {
    const a = await t.user();
    const b = await t.user();
    const code = await t.api.post("/friends/invites", { token: a.accessToken });
    expect(code.status).toBe(200);
    expect(code.body).toEqual({ code: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/), createdAt: expect.any(String) });
    expect((await t.api.post("/friends/invites", { token: a.accessToken })).body).toEqual(code.body);

    const res = await t.api.post(`/friends/invites/${code.body.code}/accept`, { token: b.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      status: "friends",
      alreadyFriends: false,
      friend: { id: a.userId, displayName: null, username: null, avatarUrl: null },
    });
    expect(await friendIds(a)).toEqual([b.userId]);
    expect(await friendIds(b)).toEqual([a.userId]);
    const again = await t.api.post(`/friends/invites/${code.body.code}/accept`, { token: b.accessToken });
    expect(again.status).toBe(200);
    expect(again.body.alreadyFriends).toBe(true);
  });

  it("settles a pending request between the two as accepted", async () => {
    const a = await t.user();
    const b = await t.user();
    const { id } = (await send(b, a)).body.request;
    const code = (await t.api.post("/friends/invites", { token: a.accessToken })).body.code;
    expect((await t.api.post(`/friends/invites/${code}/accept`, { token: b.accessToken })).status).toBe(200);
    expect((await t.api.get("/friends/requests", { token: a.accessToken })).body.incoming).toEqual([]);
    expect(await sql(t.server.databaseUrl, `SELECT status FROM "FriendRequest" WHERE id = ?`, [id])).toEqual([{ status: "accepted" }]);
  });

  it("400 cannot_invite_self for one's own code, 404 invalid_code for an unknown one", async () => {
    const a = await t.user();
    const code = (await t.api.post("/friends/invites", { token: a.accessToken })).body.code;
    const own = await t.api.post(`/friends/invites/${code}/accept`, { token: a.accessToken });
    expect(own.status).toBe(400);
    expect(own.body.error).toBe("cannot_invite_self");
    const unknown = await t.api.post("/friends/invites/nope-not-a-code/accept", { token: a.accessToken });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe("invalid_code");
  });

  it("database failures are 500 insert_failed", async () => {
    const a = await t.user();
    const b = await t.user();
    await failWrites(t.server.databaseUrl, "FriendInvite", "INSERT", "userId", a.userId);
    const create = await t.api.post("/friends/invites", { token: a.accessToken });
    expect(create.status).toBe(500);
    expect(create.body.error).toBe("insert_failed");

    const code = (await t.api.post("/friends/invites", { token: b.accessToken })).body.code;
    await failWrites(t.server.databaseUrl, "Friendship", "INSERT", "friendId", a.userId);
    const accept = await t.api.post(`/friends/invites/${code}/accept`, { token: a.accessToken });
    expect(accept.status).toBe(500);
    expect(accept.body.error).toBe("insert_failed");
    expect(await friendIds(a)).toEqual([]);
    expect(await friendIds(b)).toEqual([]);
  });
});

describe("GET /friends and DELETE /friends/{userId}", () => {
  it("friends made by following a shared list are listed, newest first", async () => {
    const me = await t.user();
    const owner = await t.user();
    const later = await t.user();
    const list = await createList(t.api, owner, { public: true });
    expect((await t.api.post(`/hosted/public/lists/${list}/link`, { token: me.accessToken })).status).toBe(200);
    await makeFriends(t.api, later, me);
    const res = await t.api.get("/friends", { token: me.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.friends.map((f: { id: string }) => f.id)).toEqual([later.userId, owner.userId]);
    expect(res.body.friends[0]).toMatchObject({ id: later.userId, displayName: null });
    // A request to someone who is a friend through a follow answers `friends`.
    expect((await send(me, owner)).body).toEqual({ status: "friends", request: null });
  });

  it("unfriending removes both directions; again, or a stranger, is 404 not_found; yourself is 400", async () => {
    const a = await t.user();
    const b = await t.user();
    const stranger = await t.user();
    await makeFriends(t.api, a, b);
    const notFriend = await t.api.delete(`/friends/${stranger.userId}`, { token: a.accessToken });
    expect(notFriend.status).toBe(404);
    expect(notFriend.body.error).toBe("not_found");
    // A stranger cannot end someone else's friendship: they have none with either.
    expect((await t.api.delete(`/friends/${a.userId}`, { token: stranger.accessToken })).status).toBe(404);
    expect(await friendIds(b)).toEqual([a.userId]);

    const self = await t.api.delete(`/friends/${a.userId}`, { token: a.accessToken });
    expect(self.status).toBe(400);
    expect(self.body.error).toBe("cannot_unfriend_self");

    const res = await t.api.delete(`/friends/${b.userId}`, { token: a.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, removed: b.userId });
    expect(await friendIds(a)).toEqual([]);
    expect(await friendIds(b)).toEqual([]);
    const again = await t.api.delete(`/friends/${b.userId}`, { token: a.accessToken });
    expect(again.status).toBe(404);
    expect(again.body.error).toBe("not_found");
  });

  it("a database failure is 500 delete_failed", async () => {
    const a = await t.user();
    const b = await t.user();
    await makeFriends(t.api, a, b);
    await failWrites(t.server.databaseUrl, "Friendship", "DELETE", "userId", a.userId);
    const res = await t.api.delete(`/friends/${b.userId}`, { token: a.accessToken });
    expect(res.status).toBe(500);
    expect(res.body.error).toBe("delete_failed");
    expect(await friendIds(a)).toEqual([b.userId]);
  });
});

describe("concurrent calls", () => {
  it("parallel requests between two users make one request, whoever sends", async () => {
    const a = await t.user();
    const b = await t.user();
    const results = await Promise.all([send(a, b), send(a, b), send(a, b), send(a, b)]);
    for (const res of results) expect(res.status).toBe(200);
    expect(new Set(results.map((r) => r.body.request.id)).size).toBe(1);
    const rows = await sql(t.server.databaseUrl, `SELECT status FROM "FriendRequest" WHERE "senderId" IN (?, ?)`, [a.userId, b.userId]);
    expect(rows).toEqual([{ status: "pending" }]);
  });

  it("a request answered twice at once is settled once", async () => {
    const a = await t.user();
    const b = await t.user();
    const { id } = (await send(a, b)).body.request;
    const results = await Promise.all([answer(b, id, "accept"), answer(b, id, "decline"), answer(b, id, "accept")]);
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) {
      expect(r.status).toBe(404);
      expect(r.body.error).toBe("not_found_or_not_pending");
    }
    const status = ok[0]!.body.request.status;
    expect(await friendIds(a)).toEqual(status === "accepted" ? [b.userId] : []);
  });
});
