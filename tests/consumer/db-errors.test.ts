// Read failures of the consumer routes are 500 db_error, and a notification
// that cannot be written never fails the action behind it: tables of this
// server's own database are dropped (SPEC 7.6).
import { describe, expect, it } from "vitest";
import { sql } from "../support/sql.ts";
import { addManualItem, consumerServer, createList, makeFriends } from "./support.ts";

const t = consumerServer({ own: true });

describe("with the consumer tables gone", () => {
  it("reads answer 500 db_error; sharing lists and purchases still work", async () => {
    const owner = await t.user();
    const friend = await t.user();
    await makeFriends(t.api, owner, friend);
    await t.api.request("PATCH", "/account", { token: owner.accessToken, body: { spoilerProtection: false } });
    const list = await createList(t.api, owner, { public: true });
    const itemId = await addManualItem(t.api, owner, list);

    const db = t.server.databaseUrl;
    await sql(db, `DROP TABLE "Notification"`);
    await sql(db, `DROP TABLE "FriendRequest"`);
    await sql(db, `DROP TABLE "AccountSettings"`);

    // Producers: the notification fails quietly, the action succeeds.
    const invite = await t.api.post(`/hosted/lists/${list}/collaborators`, { token: owner.accessToken, body: { userId: friend.userId } });
    expect(invite.status).toBe(200);
    const bought = await t.api.put(`/hosted/public/lists/${list}/items/${itemId}/purchased`, { body: { purchased: true } });
    expect(bought.status).toBe(200);

    for (const path of ["/notifications", "/friends/requests", "/account"]) {
      const res = await t.api.get(path, { token: owner.accessToken });
      expect(res.status, path).toBe(500);
      expect(res.body.error, path).toBe("db_error");
    }
    // Friends still read (their table is there), then not.
    expect((await t.api.get("/friends", { token: owner.accessToken })).body.friends).toHaveLength(1);
    await sql(db, `DROP TABLE "Friendship"`);
    const friends = await t.api.get("/friends", { token: owner.accessToken });
    expect(friends.status).toBe(500);
    expect(friends.body.error).toBe("db_error");
  });
});
