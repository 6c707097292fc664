// Following public lists (SPEC 4.3 link routes): viewer role, friendship with
// the owner in both directions, idempotent follow and unfollow.
import { beforeAll, describe, expect, it } from "vitest";
import { sharedApi } from "../support/api.ts";
import { failWrites, sql } from "../support/sql.ts";

let api: Awaited<ReturnType<typeof sharedApi>>;
beforeAll(async () => {
  api = await sharedApi();
});

type User = Awaited<ReturnType<typeof api.anonymousUser>>;

async function createList(owner: User, opts: { public?: boolean } = {}): Promise<string> {
  const created = await api.post("/hosted/me/lists", { token: owner.accessToken, body: { name: "Birthday" } });
  expect(created.status).toBe(200);
  if (opts.public) {
    const shared = await api.put(`/hosted/lists/${created.body.token}`, { token: owner.accessToken, body: { share_public: true } });
    expect(shared.status).toBe(200);
  }
  return created.body.token;
}

const link = (listToken: string) => `/hosted/public/lists/${listToken}/link`;

async function memberRows(listToken: string, userId: string) {
  return sql<{ role: string }>(
    api.server.databaseUrl,
    `SELECT m.role FROM "WishlistMember" m JOIN "Wishlist" w ON w.id = m."wishlistId" WHERE w."shareToken" = ? AND m."userId" = ?`,
    [listToken, userId],
  );
}

async function friendRows(a: string, b: string) {
  return sql<{ userId: string; friendId: string }>(
    api.server.databaseUrl,
    `SELECT "userId", "friendId" FROM "Friendship" WHERE ("userId" = ? AND "friendId" = ?) OR ("userId" = ? AND "friendId" = ?) ORDER BY "userId"`,
    [a, b, b, a],
  );
}


describe("POST /hosted/public/lists/{token}/link (follow)", () => {
  it("makes the caller a viewer and a friend of the owner in both directions", async () => {
    const owner = await api.anonymousUser();
    const follower = await api.anonymousUser();
    const list = await createList(owner, { public: true });

    const res = await api.post(link(list), { token: follower.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, role: "viewer" });
    expect(await memberRows(list, follower.userId)).toEqual([{ role: "viewer" }]);
    const friends = await friendRows(owner.userId, follower.userId);
    expect(friends).toHaveLength(2);
    expect(friends).toEqual(
      expect.arrayContaining([
        { userId: owner.userId, friendId: follower.userId },
        { userId: follower.userId, friendId: owner.userId },
      ]),
    );
  });

  it("is idempotent: following again changes nothing", async () => {
    const owner = await api.anonymousUser();
    const follower = await api.anonymousUser();
    const list = await createList(owner, { public: true });
    for (let i = 0; i < 3; i++) {
      const res = await api.post(link(list), { token: follower.accessToken });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true, role: "viewer" });
    }
    expect(await memberRows(list, follower.userId)).toHaveLength(1);
    expect(await friendRows(owner.userId, follower.userId)).toHaveLength(2);
  });

  it("concurrent follows by the same user all succeed and store one membership", async () => {
    const owner = await api.anonymousUser();
    const follower = await api.anonymousUser();
    const list = await createList(owner, { public: true });
    const results = await Promise.all(Array.from({ length: 6 }, () => api.post(link(list), { token: follower.accessToken })));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(await memberRows(list, follower.userId)).toHaveLength(1);
    expect(await friendRows(owner.userId, follower.userId)).toHaveLength(2);
  });

  it("the owner following their own list is a no-op answering role owner", async () => {
    const owner = await api.anonymousUser();
    const list = await createList(owner, { public: true });
    const res = await api.post(link(list), { token: owner.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, role: "owner" });
    expect(await memberRows(list, owner.userId)).toHaveLength(0);
    expect(await friendRows(owner.userId, owner.userId)).toHaveLength(0);
  });

  it("never downgrades an editor", async () => {
    const owner = await api.anonymousUser();
    const friend = await api.anonymousUser();
    const list = await createList(owner, { public: true });
    await api.post(link(list), { token: friend.accessToken });
    const invited = await api.post(`/hosted/lists/${list}/collaborators`, { token: owner.accessToken, body: { userId: friend.userId } });
    expect(invited.status).toBe(200);

    const res = await api.post(link(list), { token: friend.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, role: "editor" });
    expect(await memberRows(list, friend.userId)).toEqual([{ role: "editor" }]);
  });

  it("private and unknown lists give 404 not_found and store nothing", async () => {
    const owner = await api.anonymousUser();
    const stranger = await api.anonymousUser();
    const privateList = await createList(owner);
    for (const token of [privateList, "no-such-list-token"]) {
      const res = await api.post(link(token), { token: stranger.accessToken });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe("not_found");
    }
    expect(await memberRows(privateList, stranger.userId)).toHaveLength(0);
    expect(await friendRows(owner.userId, stranger.userId)).toHaveLength(0);
  });

  it("a list made private again can no longer be followed", async () => {
    const owner = await api.anonymousUser();
    const follower = await api.anonymousUser();
    const list = await createList(owner, { public: true });
    await api.put(`/hosted/lists/${list}`, { token: owner.accessToken, body: { share_public: false } });
    const res = await api.post(link(list), { token: follower.accessToken });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("not_found");
  });

  it("needs a user token", async () => {
    const owner = await api.anonymousUser();
    const list = await createList(owner, { public: true });
    const res = await api.post(link(list));
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("unauthorized");
  });

  it("a failing write gives 500 link_failed and leaves no half-made follow", async () => {
    const owner = await api.anonymousUser();
    const follower = await api.anonymousUser();
    const list = await createList(owner, { public: true });
    // The membership is written, then the friendship fails: the transaction must undo both.
    await failWrites(api.server.databaseUrl, "Friendship", "INSERT", "userId", follower.userId);
    const res = await api.post(link(list), { token: follower.accessToken });
    expect(res.status).toBe(500);
    expect(res.body.error).toBe("link_failed");
    expect(await memberRows(list, follower.userId)).toHaveLength(0);
    expect(await friendRows(owner.userId, follower.userId)).toHaveLength(0);
  });
});

describe("DELETE /hosted/public/lists/{token}/link (unfollow)", () => {
  it("removes the viewer membership, keeps the friendship, and is idempotent", async () => {
    const owner = await api.anonymousUser();
    const follower = await api.anonymousUser();
    const list = await createList(owner, { public: true });
    await api.post(link(list), { token: follower.accessToken });

    for (let i = 0; i < 2; i++) {
      const res = await api.delete(link(list), { token: follower.accessToken });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
    }
    expect(await memberRows(list, follower.userId)).toHaveLength(0);
    expect(await friendRows(owner.userId, follower.userId)).toHaveLength(2);

    // Following again after unfollowing works.
    const again = await api.post(link(list), { token: follower.accessToken });
    expect(again.body).toEqual({ ok: true, role: "viewer" });
  });

  it("an editor stays editor, and the owner stays owner", async () => {
    const owner = await api.anonymousUser();
    const friend = await api.anonymousUser();
    const list = await createList(owner, { public: true });
    await api.post(link(list), { token: friend.accessToken });
    await api.post(`/hosted/lists/${list}/collaborators`, { token: owner.accessToken, body: { userId: friend.userId } });

    expect((await api.delete(link(list), { token: friend.accessToken })).status).toBe(200);
    expect(await memberRows(list, friend.userId)).toEqual([{ role: "editor" }]);

    expect((await api.delete(link(list), { token: owner.accessToken })).status).toBe(200);
    const lists = await api.post("/hosted/lists", { token: owner.accessToken });
    expect(lists.body.lists.find((l: any) => l.id === list)).toMatchObject({ role: "owner" });
  });

  it("private and unknown lists give 404 not_found; no token gives 401", async () => {
    const owner = await api.anonymousUser();
    const follower = await api.anonymousUser();
    const privateList = await createList(owner);
    for (const token of [privateList, "no-such-list-token"]) {
      const res = await api.delete(link(token), { token: follower.accessToken });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe("not_found");
    }
    const anonymous = await api.delete(link(privateList));
    expect(anonymous.status).toBe(401);
  });

  it("a failing delete gives 500 unlink_failed and keeps the follow", async () => {
    const owner = await api.anonymousUser();
    const follower = await api.anonymousUser();
    const list = await createList(owner, { public: true });
    await api.post(link(list), { token: follower.accessToken });
    await failWrites(api.server.databaseUrl, "WishlistMember", "DELETE", "userId", follower.userId);
    const res = await api.delete(link(list), { token: follower.accessToken });
    expect(res.status).toBe(500);
    expect(res.body.error).toBe("unlink_failed");
    expect(await memberRows(list, follower.userId)).toEqual([{ role: "viewer" }]);
  });
});
