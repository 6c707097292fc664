// Personal access tokens have the rights of the portal login that created
// them (SPEC 5 rule 7): a member's token is refused where the member is, it
// follows the creator's role as it changes, and it dies with the membership
// (removal, leaving, account deletion) at once on every instance. A removed
// portal user's own token stops acting for the partner too.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api, type ApiResponse } from "../support/api.ts";
import { freshDatabaseUrl } from "../support/database.ts";
import { provisioner } from "../support/provision.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { sql } from "../support/sql.ts";
import { expectAllDocumented } from "../support/fixtures.ts";

const APP_URL = "https://wish.example";

let databaseUrl: string;
let a: TestServer;
let b: TestServer;
let apiA: Api;
let apiB: Api;
let p: Awaited<ReturnType<typeof provisioner>>;

beforeAll(async () => {
  databaseUrl = await freshDatabaseUrl();
  // Two instances on one database, as behind a load balancer.
  [a, b] = await Promise.all([startServer({ DATABASE_URL: databaseUrl, APP_URL }), startServer({ DATABASE_URL: databaseUrl, APP_URL })]);
  [apiA, apiB] = [await apiFor(a), await apiFor(b)];
  p = await provisioner(a);
});

afterAll(async () => {
  for (const s of [a, b]) if (s) expectAllDocumented(s.output());
  await Promise.all([a, b].map((s) => s?.stop()));
});

interface Person {
  userId: string;
  accessToken: string;
}

function expectError(res: ApiResponse, status: number, error: string, what = "") {
  expect(res.status, `${what} ${res.text}`).toBe(status);
  expect(res.body?.error, `${what} ${res.text}`).toBe(error);
}

async function signUp(prefix: string): Promise<Person> {
  const email = `${prefix}-${randomBytes(5).toString("hex")}@roles.example`;
  const res = await apiA.post("/auth/signup", { body: { email, password: "roles password 1" } });
  expect(res.status, res.text).toBe(200);
  return { userId: res.body.user.id, accessToken: res.body.access_token };
}

/** A partner bootstrapped by its owner, with the given others added as members, and one platform shop. */
async function team(...others: Person[]) {
  const owner = await signUp("owner");
  const boot = await apiA.post("/partner/bootstrap", { token: owner.accessToken, body: { name: "Team Shop" } });
  expect(boot.status, boot.text).toBe(201);
  const partnerId = boot.body.partner.partner_id as number;
  for (const person of others) {
    const added = await apiA.post(`/partners/${partnerId}/members`, { token: owner.accessToken, body: { userId: person.userId, role: "member" } });
    expect(added.status, added.text).toBe(201);
  }
  const shop = await p.shop(partnerId);
  return { owner, partnerId, shopId: shop.id };
}

/** A personal access token minted with `token` (a portal user's token or another access token). */
async function pat(token: string, name = "tooling") {
  const res = await apiA.post("/partner/access-tokens", { token, body: { name } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; token: string; created_by: string | null };
}

const setRole = (owner: Person, partnerId: number, userId: string, role: "owner" | "member") =>
  apiA.request("PATCH", `/partners/${partnerId}/members/${userId}`, { token: owner.accessToken, body: { role } });

describe("a token carries its creator's role", () => {
  it("owner-only routes refuse a member's token exactly as the member's login (403 forbidden); an owner's token works", async () => {
    const member = await signUp("member");
    const { owner, partnerId, shopId } = await team(member);
    const ownerPat = await pat(owner.accessToken, "owner tooling");
    const memberPat = await pat(member.accessToken, "member tooling");
    // A token minted with the member's token is the member's too: no way up.
    const chained = await pat(memberPat.token, "chained");

    const slug = `picks-${randomBytes(3).toString("hex")}`;
    const made = await apiA.post(`/partner/shops/${shopId}/lists`, { token: owner.accessToken, body: { slug, title: "Picks" } });
    expect(made.status, made.text).toBe(201);

    const ownerOnly: Array<[string, string, unknown?]> = [
      ["PATCH", `/partner/shops/${shopId}`, { description: "changed" }],
      ["POST", `/partner/shops/${shopId}/lists`, { slug: "other", title: "Other" }],
      ["PUT", `/partner/shops/${shopId}/lists/${slug}`, { title: "Renamed" }],
      ["DELETE", `/partner/shops/${shopId}/lists/${slug}`],
    ];
    for (const [method, path, body] of ownerOnly) {
      for (const [who, token] of [
        ["member login", member.accessToken],
        ["member token", memberPat.token],
        ["chained member token", chained.token],
      ]) {
        for (const api of [apiA, apiB]) expectError(await api.request(method, path, { token, body }), 403, "forbidden", `${who} ${method} ${path}`);
      }
    }
    // Nothing changed.
    const lists = await apiA.get(`/partner/shops/${shopId}/lists`, { token: memberPat.token });
    expect(lists.status, lists.text).toBe(200);
    expect(lists.body.lists.map((l: { slug: string; title: string }) => [l.slug, l.title])).toEqual([[slug, "Picks"]]);
    expect((await apiA.get(`/partner/shops/${shopId}`, { token: memberPat.token })).body.shop.description).toBe("");

    // The owner's token does all of it.
    for (const [method, path, body] of ownerOnly) {
      const res = await apiB.request(method, path, { token: ownerPat.token, body });
      expect(res.status, `owner token ${method} ${path} ${res.text}`).toBeLessThan(300);
    }

    // Managing people takes a portal sign-in: neither token may, whatever its creator's role.
    const outsider = await signUp("outsider");
    for (const token of [ownerPat.token, memberPat.token]) {
      expectError(await apiA.post(`/partners/${partnerId}/members`, { token, body: { userId: outsider.userId } }), 403, "forbidden");
      expectError(await apiA.request("PATCH", `/partners/${partnerId}/members/${member.userId}`, { token, body: { role: "owner" } }), 403, "forbidden");
      expectError(await apiA.delete(`/partners/${partnerId}/members/${member.userId}`, { token }), 403, "forbidden");
    }
    const people = await apiA.get(`/partners/${partnerId}/members`, { token: owner.accessToken });
    expect(people.body.members.map((m: { user_id: string; role: string }) => [m.user_id, m.role])).toEqual([
      [owner.userId, "owner"],
      [member.userId, "member"],
    ]);
    // The listing says whose rights each token has.
    const listed = await apiA.get("/partner/access-tokens", { token: owner.accessToken });
    const createdBy = Object.fromEntries(listed.body.access_tokens.map((t: { id: number; created_by: string | null }) => [t.id, t.created_by]));
    expect(createdBy).toEqual({ [ownerPat.id]: owner.userId, [memberPat.id]: member.userId, [chained.id]: member.userId });
  });

  it("member-allowed routes take a member's token as they take the member's login", async () => {
    const member = await signUp("member");
    const { partnerId, shopId } = await team(member);
    const memberPat = await pat(member.accessToken);
    for (const token of [member.accessToken, memberPat.token]) {
      for (const path of ["/partner/shops", `/partner/shops/${shopId}`, `/partner/shops/${shopId}/lists`, "/partner/keys", "/partner/access-tokens", `/partners/${partnerId}/members`]) {
        const res = await apiB.get(path, { token });
        expect(res.status, `${path} ${res.text}`).toBe(200);
      }
      const key = await apiB.post("/partner/keys", { token, body: { environment: "test" } });
      expect(key.status, key.text).toBe(201);
    }
  });

  it("follows the creator's role as it changes, at once", async () => {
    const member = await signUp("member");
    const { owner, partnerId, shopId } = await team(member);
    const memberPat = await pat(member.accessToken);
    const edit = (api: Api) => api.request("PATCH", `/partner/shops/${shopId}`, { token: memberPat.token, body: { description: "by the member" } });
    expectError(await edit(apiA), 403, "forbidden");

    expect((await setRole(owner, partnerId, member.userId, "owner")).status).toBe(200);
    expect((await edit(apiB)).status).toBe(200);

    expect((await setRole(owner, partnerId, member.userId, "member")).status).toBe(200);
    expectError(await edit(apiB), 403, "forbidden");
    expectError(await edit(apiA), 403, "forbidden");
  });
});

describe("a token dies with its creator's membership", () => {
  it("removed from the partner: the member's tokens are 401 unauthorized at once on every instance, and stay dead when re-added", async () => {
    const member = await signUp("member");
    const { owner, partnerId, shopId } = await team(member);
    const memberPat = await pat(member.accessToken);
    const ownerPat = await pat(owner.accessToken);
    for (const api of [apiA, apiB]) expect((await api.get("/partner/keys", { token: memberPat.token })).status).toBe(200);

    const removed = await apiA.delete(`/partners/${partnerId}/members/${member.userId}`, { token: owner.accessToken });
    expect(removed.status, removed.text).toBe(200);
    // The other instance, the very next request: no cache window.
    for (const api of [apiB, apiA]) {
      expectError(await api.get("/partner/keys", { token: memberPat.token }), 401, "unauthorized");
      expectError(await api.get(`/partner/shops/${shopId}`, { token: memberPat.token }), 401, "unauthorized");
      expectError(await api.post("/partner/keys", { token: memberPat.token, body: { environment: "test" } }), 401, "unauthorized");
      // The member's login no longer acts for the partner either.
      expectError(await api.get("/partner/keys", { token: member.accessToken }), 404, "no_partner");
      expectError(await api.get(`/partners/${partnerId}/members`, { token: member.accessToken }), 404, "no_partner");
    }
    // The owner sees the token revoked; the owner's own token is untouched.
    const listed = await apiB.get("/partner/access-tokens", { token: ownerPat.token });
    expect(listed.status, listed.text).toBe(200);
    const row = listed.body.access_tokens.find((t: { id: number }) => t.id === memberPat.id);
    expect(row).toMatchObject({ created_by: member.userId, revoked_at: expect.any(String) });

    const back = await apiA.post(`/partners/${partnerId}/members`, { token: owner.accessToken, body: { userId: member.userId, role: "owner" } });
    expect(back.status, back.text).toBe(201);
    expectError(await apiB.get("/partner/keys", { token: memberPat.token }), 401, "unauthorized");
    expect((await apiB.get("/partner/keys", { token: member.accessToken })).status).toBe(200);
  });

  it("a removed owner's token and login stop acting for the partner", async () => {
    const second = await signUp("second");
    const { owner, partnerId, shopId } = await team(second);
    expect((await setRole(owner, partnerId, second.userId, "owner")).status).toBe(200);
    const secondPat = await pat(second.accessToken);
    expect((await apiB.request("PATCH", `/partner/shops/${shopId}`, { token: secondPat.token, body: { published: true } })).status).toBe(200);

    expect((await apiA.delete(`/partners/${partnerId}/members/${second.userId}`, { token: owner.accessToken })).status).toBe(200);
    for (const api of [apiB, apiA]) {
      expectError(await api.request("PATCH", `/partner/shops/${shopId}`, { token: secondPat.token, body: { published: false } }), 401, "unauthorized");
      expectError(await api.request("PATCH", `/partner/shops/${shopId}`, { token: second.accessToken, body: { published: false } }), 404, "no_partner");
      expectError(await api.get("/partner/me", { token: second.accessToken }), 404, "no_partner");
    }
  });

  it("a member who leaves: their tokens are 401 at once", async () => {
    const member = await signUp("member");
    const { partnerId } = await team(member);
    const memberPat = await pat(member.accessToken);
    const left = await apiB.delete(`/partners/${partnerId}/members/${member.userId}`, { token: member.accessToken });
    expect(left.status, left.text).toBe(200);
    for (const api of [apiA, apiB]) expectError(await api.get("/partner/me", { token: memberPat.token }), 401, "unauthorized");
  });

  it("after the member deletes the account, their tokens are 401 unauthorized at once on every instance", async () => {
    const member = await signUp("member");
    const { owner, partnerId } = await team(member);
    const memberPat = await pat(member.accessToken);
    const ownerPat = await pat(owner.accessToken);
    expect((await apiB.get("/partner/keys", { token: memberPat.token })).status).toBe(200);

    const deleted = await apiA.delete("/account", { token: member.accessToken });
    expect(deleted.status, deleted.text).toBe(200);
    for (const api of [apiB, apiA]) {
      expectError(await api.get("/partner/keys", { token: memberPat.token }), 401, "unauthorized");
      expectError(await api.post("/partner/access-tokens", { token: memberPat.token, body: {} }), 401, "unauthorized");
      expect((await api.get("/partner/keys", { token: ownerPat.token })).status).toBe(200);
    }
    const [row] = await sql<{ revokedAt: unknown }>(databaseUrl, `SELECT "revokedAt" FROM "PersonalAccessToken" WHERE id = ?`, [memberPat.id]);
    expect(row?.revokedAt).toBeTruthy();
    const people = await apiA.get(`/partners/${partnerId}/members`, { token: owner.accessToken });
    expect(people.body.members.map((m: { user_id: string }) => m.user_id)).toEqual([owner.userId]);
  });

  it("also when the membership ends outside the API (operator writing the database)", async () => {
    const member = await signUp("member");
    const { partnerId } = await team(member);
    const memberPat = await pat(member.accessToken);
    expect((await apiB.get("/partner/me", { token: memberPat.token })).status).toBe(200);
    await sql(databaseUrl, `DELETE FROM "PartnerUser" WHERE "partnerId" = ? AND "userId" = ?`, [partnerId, member.userId]);
    for (const api of [apiA, apiB]) expectError(await api.get("/partner/me", { token: memberPat.token }), 401, "unauthorized");
  });
});
