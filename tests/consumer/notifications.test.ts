// The notification feed (SPEC 7.6): friend requests, accepted
// requests, lists shared with me, items bought from my lists (respecting the
// owner's spoiler protection); reading, marking read, deleting.
import { describe, expect, it } from "vitest";
import { failWrites } from "../support/sql.ts";
import { addManualItem, consumerServer, createList, makeFriends, type Consumer } from "./support.ts";

const t = consumerServer();

const feed = (user: Consumer, query = "") => t.api.get(`/notifications${query}`, { token: user.accessToken });
const types = async (user: Consumer) => ((await feed(user)).body.notifications as Array<{ type: string }>).map((n) => n.type);
const setSpoiler = async (user: Consumer, on: boolean) =>
  expect((await t.api.request("PATCH", "/account", { token: user.accessToken, body: { spoilerProtection: on } })).status).toBe(200);

describe("friend notifications", () => {
  it("a request notifies the recipient; its acceptance notifies the sender", async () => {
    const a = await t.user();
    const b = await t.user();
    await t.api.request("PATCH", "/account", { token: a.accessToken, body: { displayName: "Ann" } });
    const sent = await t.api.post("/friends/requests", { token: a.accessToken, body: { friendId: b.userId } });
    const res = await feed(b);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      notifications: [
        {
          id: expect.any(Number),
          type: "friend_request",
          actor: { id: a.userId, displayName: "Ann", username: null, avatarUrl: null },
          data: { requestId: sent.body.request.id },
          read: false,
          readAt: null,
          createdAt: expect.any(String),
        },
      ],
      unreadCount: 1,
      nextCursor: null,
    });
    expect(await types(a)).toEqual([]);
    await t.api.post(`/friends/requests/${sent.body.request.id}/accept`, { token: b.accessToken });
    const accepted = (await feed(a)).body.notifications;
    expect(accepted).toEqual([expect.objectContaining({ type: "friend_accepted", actor: expect.objectContaining({ id: b.userId }) })]);
    // Accepting an invite code notifies the code's owner too.
    const c = await t.user();
    const code = (await t.api.post("/friends/invites", { token: a.accessToken })).body.code;
    await t.api.post(`/friends/invites/${code}/accept`, { token: c.accessToken });
    expect((await feed(a)).body.notifications[0]).toMatchObject({ type: "friend_accepted", actor: { id: c.userId }, data: { via: "invite" } });
  });
});

describe("list_shared", () => {
  it("being made a collaborator notifies the invitee once", async () => {
    const owner = await t.user();
    const friend = await t.user();
    await makeFriends(t.api, owner, friend);
    const list = await createList(t.api, owner, { name: "Wedding" });
    for (let i = 0; i < 2; i++) {
      const res = await t.api.post(`/hosted/lists/${list}/collaborators`, { token: owner.accessToken, body: { userId: friend.userId } });
      expect(res.status).toBe(200);
    }
    const shared = (await feed(friend)).body.notifications.filter((n: { type: string }) => n.type === "list_shared");
    expect(shared).toEqual([
      expect.objectContaining({ actor: expect.objectContaining({ id: owner.userId }), data: { listId: list, listName: "Wedding", role: "editor" } }),
    ]);
  });
});

describe("item_purchased and spoiler protection", () => {
  async function ownerWithPublicItem() {
    const owner = await t.user();
    const list = await createList(t.api, owner, { name: "Birthday", public: true });
    const itemId = await addManualItem(t.api, owner, list, "Red scarf");
    return { owner, list, itemId };
  }
  const markPublic = (list: string, itemId: number, purchased: boolean) =>
    t.api.put(`/hosted/public/lists/${list}/items/${itemId}/purchased`, { body: { purchased } });

  it("with spoiler protection on (the default) the owner is not told", async () => {
    const { owner, list, itemId } = await ownerWithPublicItem();
    const res = await markPublic(list, itemId, true);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, purchased: true });
    expect(await types(owner)).toEqual([]);
  });

  it("with spoiler protection off the owner is told, once per purchase", async () => {
    const { owner, list, itemId } = await ownerWithPublicItem();
    await setSpoiler(owner, false);
    expect((await markPublic(list, itemId, true)).status).toBe(200);
    expect((await markPublic(list, itemId, true)).status).toBe(200);
    const res = await feed(owner);
    expect(res.body.notifications).toEqual([
      expect.objectContaining({ type: "item_purchased", actor: null, data: { listId: list, listName: "Birthday", itemId, title: "Red scarf" } }),
    ]);
    // Unmarked and bought again: a new purchase.
    expect((await markPublic(list, itemId, false)).status).toBe(200);
    expect((await markPublic(list, itemId, true)).status).toBe(200);
    expect(await types(owner)).toEqual(["item_purchased", "item_purchased"]);
  });

  it("an editor's purchase names the editor; the owner's own marks notify nobody", async () => {
    const { owner, list, itemId } = await ownerWithPublicItem();
    const editor = await t.user();
    await makeFriends(t.api, owner, editor);
    expect((await t.api.post(`/hosted/lists/${list}/collaborators`, { token: owner.accessToken, body: { userId: editor.userId } })).status).toBe(200);
    await setSpoiler(owner, false);
    const before = (await feed(owner)).body.notifications.length;

    const own = await t.api.put(`/hosted/lists/${list}/items/${itemId}/purchased`, { token: owner.accessToken, body: { purchased: true } });
    expect(own.status).toBe(200);
    expect((await feed(owner)).body.notifications).toHaveLength(before);
    await t.api.put(`/hosted/lists/${list}/items/${itemId}/purchased`, { token: owner.accessToken, body: { purchased: false } });

    const res = await t.api.put(`/hosted/lists/${list}/items/${itemId}/purchased`, { token: editor.accessToken, body: { purchased: true } });
    expect(res.status).toBe(200);
    expect((await feed(owner)).body.notifications[0]).toMatchObject({ type: "item_purchased", actor: { id: editor.userId }, data: { itemId } });

    // The item update route's purchased flag counts as well.
    const second = await addManualItem(t.api, owner, list, "Blue hat");
    const update = await t.api.put(`/hosted/lists/${list}/items/${second}`, { token: editor.accessToken, body: { purchased: true } });
    expect(update.status).toBe(200);
    expect((await feed(owner)).body.notifications[0]).toMatchObject({ type: "item_purchased", data: { itemId: second, title: "Blue hat" } });
  });
});

describe("reading, marking and deleting", () => {
  /** `count` friend requests to `user` from new users; their notifications, newest first. */
  async function withRequests(user: Consumer, count: number) {
    for (let i = 0; i < count; i++) {
      const sender = await t.user();
      expect((await t.api.post("/friends/requests", { token: sender.accessToken, body: { friendId: user.userId } })).status).toBe(200);
    }
    return (await feed(user, "?limit=100")).body.notifications as Array<{ id: number }>;
  }

  it("pages newest first with nextCursor, and filters unread", async () => {
    const me = await t.user();
    const all = await withRequests(me, 5);
    expect(all).toHaveLength(5);
    const ids = all.map((n) => n.id);
    expect([...ids].sort((x, y) => y - x)).toEqual(ids);

    const page1 = await feed(me, "?limit=2");
    expect(page1.body.notifications.map((n: { id: number }) => n.id)).toEqual(ids.slice(0, 2));
    expect(page1.body.nextCursor).toBe(String(ids[1]));
    const page2 = await feed(me, `?limit=2&before=${page1.body.nextCursor}`);
    expect(page2.body.notifications.map((n: { id: number }) => n.id)).toEqual(ids.slice(2, 4));
    const page3 = await feed(me, `?limit=2&before=${page2.body.nextCursor}`);
    expect(page3.body.notifications.map((n: { id: number }) => n.id)).toEqual(ids.slice(4));
    expect(page3.body.nextCursor).toBeNull();

    const read = await t.api.post(`/notifications/${ids[0]}/read`, { token: me.accessToken });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ ok: true, id: ids[0], readAt: expect.any(String) });
    // Idempotent: the first read time stays.
    expect((await t.api.post(`/notifications/${ids[0]}/read`, { token: me.accessToken })).body).toEqual(read.body);
    const unread = await feed(me, "?unread=true");
    expect(unread.body.notifications.map((n: { id: number }) => n.id)).toEqual(ids.slice(1));
    expect(unread.body.unreadCount).toBe(4);
    expect((await feed(me)).body.notifications[0]).toMatchObject({ id: ids[0], read: true, readAt: read.body.readAt });

    const all2 = await t.api.post("/notifications/read-all", { token: me.accessToken });
    expect(all2.status).toBe(200);
    expect(all2.body).toEqual({ ok: true, updated: 4 });
    expect((await feed(me)).body.unreadCount).toBe(0);
    expect((await feed(me, "?unread=true")).body.notifications).toEqual([]);

    const del = await t.api.delete(`/notifications/${ids[2]}`, { token: me.accessToken });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ ok: true, deleted: ids[2] });
    expect((await feed(me)).body.notifications.map((n: { id: number }) => n.id)).toEqual(ids.filter((id) => id !== ids[2]));
    const again = await t.api.delete(`/notifications/${ids[2]}`, { token: me.accessToken });
    expect(again.status).toBe(404);
    expect(again.body.error).toBe("not_found");
  });

  it.each(["?limit=0", "?limit=101", "?limit=x", "?before=0", "?before=abc", "?unread=maybe"])("400 invalid_input for %s", async (query) => {
    const me = await t.user();
    const res = await feed(me, query);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_input");
  });

  it("another user's notification is 404 not_found, unchanged and undeleted; unknown ids too", async () => {
    const owner = await t.user();
    const [mine] = await withRequests(owner, 1);
    const other = await t.user();
    for (const res of [
      await t.api.post(`/notifications/${mine!.id}/read`, { token: other.accessToken }),
      await t.api.delete(`/notifications/${mine!.id}`, { token: other.accessToken }),
      await t.api.post("/notifications/999999999/read", { token: other.accessToken }),
      await t.api.delete("/notifications/abc", { token: other.accessToken }),
      await t.api.post("/notifications/-3/read", { token: other.accessToken }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: "not_found", message: expect.any(String) });
    }
    // read-all touches only one's own.
    expect((await t.api.post("/notifications/read-all", { token: other.accessToken })).body).toEqual({ ok: true, updated: 0 });
    expect((await feed(other)).body).toEqual({ notifications: [], unreadCount: 0, nextCursor: null });
    expect((await feed(owner)).body.notifications).toEqual([expect.objectContaining({ id: mine!.id, read: false })]);
  });

  it("database failures are 500 update_failed and delete_failed", async () => {
    const me = await t.user();
    const [n] = await withRequests(me, 1);
    await failWrites(t.server.databaseUrl, "Notification", "UPDATE", "userId", me.userId);
    await failWrites(t.server.databaseUrl, "Notification", "DELETE", "userId", me.userId);
    for (const res of [
      await t.api.post(`/notifications/${n!.id}/read`, { token: me.accessToken }),
      await t.api.post("/notifications/read-all", { token: me.accessToken }),
    ]) {
      expect(res.status).toBe(500);
      expect(res.body.error).toBe("update_failed");
    }
    const del = await t.api.delete(`/notifications/${n!.id}`, { token: me.accessToken });
    expect(del.status).toBe(500);
    expect(del.body.error).toBe("delete_failed");
    expect((await feed(me)).body.unreadCount).toBe(1);
  });
});
