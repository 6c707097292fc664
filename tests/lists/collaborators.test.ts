// Collaborators of a list (SPEC 4.2, 5 rule 8, 7.2): the owner lists, invites
// (friends only) and removes editors. Friendship comes from the realistic
// flow: the invitee follows the owner's public list first.
import { beforeAll, describe, expect, it } from "vitest";
import { sharedApi } from "../support/api.ts";
import { failWrites, sql } from "../support/sql.ts";
import { clockPast } from "../support/wait.ts";

let api: Awaited<ReturnType<typeof sharedApi>>;
beforeAll(async () => {
  api = await sharedApi();
});

type User = Awaited<ReturnType<typeof api.anonymousUser>>;

async function createList(owner: User, name = "Wedding"): Promise<string> {
  const created = await api.post("/hosted/me/lists", { token: owner.accessToken, body: { name } });
  expect(created.status).toBe(200);
  const shared = await api.put(`/hosted/lists/${created.body.token}`, { token: owner.accessToken, body: { share_public: true } });
  expect(shared.status).toBe(200);
  return created.body.token;
}

/** `friend` follows the owner's public list, which makes them friends. */
async function befriend(friend: User, listToken: string) {
  const res = await api.post(`/hosted/public/lists/${listToken}/link`, { token: friend.accessToken });
  expect(res.status).toBe(200);
}

const collaborators = (list: string) => `/hosted/lists/${list}/collaborators`;

/** An owner with a public list and a friend who follows it. */
async function ownerWithFriend() {
  const owner = await api.anonymousUser();
  const friend = await api.anonymousUser();
  const list = await createList(owner);
  await befriend(friend, list);
  return { owner, friend, list };
}

describe("inviting a collaborator", () => {
  it("upgrades the following friend to editor and lists them", async () => {
    const { owner, friend, list } = await ownerWithFriend();
    const res = await api.post(collaborators(list), { token: owner.accessToken, body: { userId: friend.userId } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      collaborator: { user_id: friend.userId, name: expect.any(String), avatar: null, role: "editor", added_at: expect.any(String) },
    });

    const listed = await api.get(collaborators(list), { token: owner.accessToken });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ collaborators: [res.body.collaborator] });

    // The editor now sees the list among theirs and may read its items.
    const theirs = await api.post("/hosted/lists", { token: friend.accessToken });
    expect(theirs.body.lists.find((l: any) => l.id === list)).toMatchObject({ role: "editor", owner_id: owner.userId });
    expect((await api.get(`/hosted/lists/${list}/items`, { token: friend.accessToken })).status).toBe(200);
    const ownerView = await api.post("/hosted/lists", { token: owner.accessToken });
    expect(ownerView.body.lists.find((l: any) => l.id === list)).toMatchObject({ collaboratorCount: 1, is_shared: true });
  });

  it("accepts user_id as well, and inviting again is idempotent", async () => {
    const { owner, friend, list } = await ownerWithFriend();
    const first = await api.post(collaborators(list), { token: owner.accessToken, body: { user_id: friend.userId } });
    expect(first.status).toBe(200);
    const second = await api.post(collaborators(list), { token: owner.accessToken, body: { userId: friend.userId } });
    expect(second.status).toBe(200);
    expect(second.body.collaborator).toEqual(first.body.collaborator);
    const listed = await api.get(collaborators(list), { token: owner.accessToken });
    expect(listed.body.collaborators).toHaveLength(1);
  });

  it("a friend made on one list can be invited to another list of the owner", async () => {
    const { owner, friend } = await ownerWithFriend();
    const other = await createList(owner, "Christmas");
    const res = await api.post(collaborators(other), { token: owner.accessToken, body: { userId: friend.userId } });
    expect(res.status).toBe(200);
    expect(res.body.collaborator.role).toBe("editor");
  });

  it("moves the list to the top of the owner's lists (updated_at)", async () => {
    const { owner, friend, list } = await ownerWithFriend();
    await clockPast(); // a later updated_at than the last write's
    const newer = await createList(owner, "Newer");
    let lists = (await api.post("/hosted/lists", { token: owner.accessToken })).body.lists;
    expect(lists[0].id).toBe(newer);
    await clockPast(); // a later updated_at than the last write's
    await api.post(collaborators(list), { token: owner.accessToken, body: { userId: friend.userId } });
    lists = (await api.post("/hosted/lists", { token: owner.accessToken })).body.lists;
    expect(lists[0].id).toBe(list);
  });

  it("missing or non-string userId gives 400 missing_user", async () => {
    const { owner, list } = await ownerWithFriend();
    for (const body of [{}, { userId: "" }, { userId: 42 }, undefined]) {
      const res = await api.post(collaborators(list), { token: owner.accessToken, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe("missing_user");
    }
  });

  it("inviting yourself gives 400 self_invite", async () => {
    const { owner, list } = await ownerWithFriend();
    const res = await api.post(collaborators(list), { token: owner.accessToken, body: { userId: owner.userId } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("self_invite");
  });

  it("someone who is not the owner's friend gives 403 not_a_friend, also an unknown user id", async () => {
    const { owner, list } = await ownerWithFriend();
    const stranger = await api.anonymousUser();
    for (const userId of [stranger.userId, "00000000-0000-0000-0000-000000000000"]) {
      const res = await api.post(collaborators(list), { token: owner.accessToken, body: { userId } });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe("not_a_friend");
    }
    expect((await api.get(collaborators(list), { token: owner.accessToken })).body.collaborators).toEqual([]);
  });

  it("friendship is directed from the owner: the owner following the friend's list also counts", async () => {
    const owner = await api.anonymousUser();
    const friend = await api.anonymousUser();
    const friendsList = await createList(friend, "Friend's list");
    await befriend(owner, friendsList);
    const list = await createList(owner);
    const res = await api.post(collaborators(list), { token: owner.accessToken, body: { userId: friend.userId } });
    expect(res.status).toBe(200);
  });

  it("a failing write gives 500 upsert_failed and changes nothing", async () => {
    const { owner, friend, list } = await ownerWithFriend();
    await failWrites(api.server.databaseUrl, "WishlistMember", "UPDATE", "userId", friend.userId);
    const res = await api.post(collaborators(list), { token: owner.accessToken, body: { userId: friend.userId } });
    expect(res.status).toBe(500);
    expect(res.body.error).toBe("upsert_failed");
    const [row] = await sql<{ role: string }>(api.server.databaseUrl, `SELECT role FROM "WishlistMember" WHERE "userId" = ?`, [friend.userId]);
    expect(row.role).toBe("viewer");
  });
});

describe("removing a collaborator", () => {
  it("removes the editor, who loses access; removing again gives 404 not_found", async () => {
    const { owner, friend, list } = await ownerWithFriend();
    await api.post(collaborators(list), { token: owner.accessToken, body: { userId: friend.userId } });
    expect((await api.get(`/hosted/lists/${list}/items`, { token: friend.accessToken })).status).toBe(200);

    const res = await api.delete(`${collaborators(list)}/${friend.userId}`, { token: owner.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect((await api.get(collaborators(list), { token: owner.accessToken })).body.collaborators).toEqual([]);
    expect((await api.get(`/hosted/lists/${list}/items`, { token: friend.accessToken })).status).toBe(403);

    const again = await api.delete(`${collaborators(list)}/${friend.userId}`, { token: owner.accessToken });
    expect(again.status).toBe(404);
    expect(again.body.error).toBe("not_found");
  });

  it("a follower (viewer) is not a collaborator: 404 not_found and the follow stays", async () => {
    const { owner, friend, list } = await ownerWithFriend();
    const res = await api.delete(`${collaborators(list)}/${friend.userId}`, { token: owner.accessToken });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("not_found");
    const rows = await sql(api.server.databaseUrl, `SELECT role FROM "WishlistMember" WHERE "userId" = ?`, [friend.userId]);
    expect(rows).toEqual([{ role: "viewer" }]);
  });

  it("moves the list to the top of the owner's lists (updated_at)", async () => {
    const { owner, friend, list } = await ownerWithFriend();
    await api.post(collaborators(list), { token: owner.accessToken, body: { userId: friend.userId } });
    await clockPast(); // a later updated_at than the last write's
    const newer = await createList(owner, "Newer");
    expect((await api.post("/hosted/lists", { token: owner.accessToken })).body.lists[0].id).toBe(newer);
    await clockPast(); // a later updated_at than the last write's
    await api.delete(`${collaborators(list)}/${friend.userId}`, { token: owner.accessToken });
    expect((await api.post("/hosted/lists", { token: owner.accessToken })).body.lists[0].id).toBe(list);
  });
});

describe("who may manage collaborators", () => {
  it("only the owner: editor, viewer and stranger get 403 forbidden on every route", async () => {
    const { owner, friend: editor, list } = await ownerWithFriend();
    await api.post(collaborators(list), { token: owner.accessToken, body: { userId: editor.userId } });
    const viewer = await api.anonymousUser();
    await befriend(viewer, list);
    const stranger = await api.anonymousUser();

    for (const who of [editor, viewer, stranger]) {
      const calls = [
        api.get(collaborators(list), { token: who.accessToken }),
        api.post(collaborators(list), { token: who.accessToken, body: { userId: viewer.userId } }),
        api.delete(`${collaborators(list)}/${editor.userId}`, { token: who.accessToken }),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.status).toBe(403);
        expect(res.body.error).toBe("forbidden");
      }
    }
    // Nothing changed.
    const listed = await api.get(collaborators(list), { token: owner.accessToken });
    expect(listed.body.collaborators.map((c: any) => c.user_id)).toEqual([editor.userId]);
  });

  it("unknown lists give 404 not_found; no user token gives 401 unauthorized", async () => {
    const owner = await api.anonymousUser();
    const list = await createList(owner);
    for (const res of [
      await api.get(collaborators("no-such-list"), { token: owner.accessToken }),
      await api.post(collaborators("no-such-list"), { token: owner.accessToken, body: { userId: "x" } }),
      await api.delete(`${collaborators("no-such-list")}/x`, { token: owner.accessToken }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toBe("not_found");
    }
    for (const res of [
      await api.get(collaborators(list)),
      await api.post(collaborators(list), { body: { userId: "x" } }),
      await api.delete(`${collaborators(list)}/x`),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body.error).toBe("unauthorized");
    }
  });
});
