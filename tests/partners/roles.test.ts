// Partner bootstrap and portal roles: POST /partner/bootstrap, GET /partner/me,
// /partners/{partnerId}/members (owner and member roles, last owner kept).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api } from "../support/api.ts";
import { startInProcess, type InProcessServer } from "../support/in-process.ts";
import { sql } from "../support/sql.ts";
import { emailUser, expectAllDocumented, expectError, type PortalUser } from "../support/fixtures.ts";

let server: InProcessServer;
let api: Api;

beforeAll(async () => {
  server = await startInProcess();
  api = await apiFor(server);
});

afterAll(async () => {
  if (server) expectAllDocumented(server.output());
  await server?.stop();
});

async function bootstrap(user: PortalUser, body: Record<string, unknown> = {}) {
  const res = await api.post("/partner/bootstrap", { token: user.accessToken, body });
  expect([200, 201], res.text).toContain(res.status);
  return res.body as { created: boolean; partner: { partner_id: number; name: string; email: string }; role: string };
}

const members = (user: { accessToken: string }, partnerId: number | string) =>
  api.get(`/partners/${partnerId}/members`, { token: user.accessToken });

describe("POST /partner/bootstrap and GET /partner/me", () => {
  it("creates the caller's partner once (201), then returns it (200)", async () => {
    const owner = await emailUser(api, "boot");
    const first = await api.post("/partner/bootstrap", { token: owner.accessToken, body: { name: "Boot Shop" } });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ created: true, role: "owner", partner: { name: "Boot Shop", email: owner.email, plan: "free" } });
    const again = await api.post("/partner/bootstrap", { token: owner.accessToken, body: { name: "Other name" } });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ created: false, role: "owner", partner: { partner_id: first.body.partner.partner_id, name: "Boot Shop" } });
    const me = await api.get("/partner/me", { token: owner.accessToken });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ partner: first.body.partner, role: "owner" });
  });

  it("concurrent bootstraps of one user end with one partner", async () => {
    const owner = await emailUser(api, "race");
    const answers = await Promise.all([1, 2, 3, 4].map(() => api.post("/partner/bootstrap", { token: owner.accessToken, body: {} })));
    const ids = new Set(answers.map((a) => a.body.partner.partner_id));
    expect(ids.size, answers.map((a) => a.text).join("\n")).toBe(1);
    const links = await sql(server.databaseUrl, `SELECT "partnerId" FROM "PartnerUser" WHERE "userId" = ?`, [owner.userId]);
    expect(links).toEqual([{ partnerId: [...ids][0] }]);
  });

  it("an account without e-mail needs one in the body (400 invalid_email)", async () => {
    const anon = await api.anonymousUser();
    expectError(await api.post("/partner/bootstrap", { token: anon.accessToken, body: {} }), 400, "invalid_email");
    const res = await api.post("/partner/bootstrap", { token: anon.accessToken, body: { name: "Anon Shop", email: "anon@intake.example" } });
    expect(res.status).toBe(201);
    expect(res.body.partner).toMatchObject({ name: "Anon Shop", email: "anon@intake.example" });
  });

  it("needs a user token (401) and answers 404 no_partner on /partner/me without a partner", async () => {
    expectError(await api.post("/partner/bootstrap", { body: {} }), 401, "unauthorized");
    const loner = await emailUser(api, "loner");
    expectError(await api.get("/partner/me", { token: loner.accessToken }), 404, "no_partner");
  });

  it("a personal access token reads its partner with role null", async () => {
    const owner = await emailUser(api, "pat");
    const { partner } = await bootstrap(owner);
    const pat = await api.post("/partner/access-tokens", { token: owner.accessToken, body: { name: "ci" } });
    expect(pat.status, pat.text).toBe(201);
    const me = await api.get("/partner/me", { token: pat.body.token });
    expect(me.body).toEqual({ partner, role: null });
  });
});

describe("/partners/{partnerId}/members", () => {
  let owner: PortalUser;
  let member: PortalUser;
  let outsider: PortalUser;
  let partnerId: number;

  beforeAll(async () => {
    owner = await emailUser(api, "owner");
    member = await emailUser(api, "member");
    outsider = await emailUser(api, "outsider");
    partnerId = (await bootstrap(owner)).partner.partner_id;
    await bootstrap(outsider);
  });

  it("lists the owner; access codes in SPEC 7.4 order", async () => {
    const res = await members(owner, partnerId);
    expect(res.status, res.text).toBe(200);
    expect(res.body.members).toEqual([
      { user_id: owner.userId, email: owner.email, display_name: null, role: "owner", created_at: expect.any(String) },
    ]);
    expectError(await members(owner, "abc"), 400, "invalid_partner_id");
    const loner = await emailUser(api, "loner");
    expectError(await members(loner, partnerId), 404, "no_partner");
    expectError(await members(owner, 987654321), 404, "not_found");
    // Another partner's owner sees nothing of this one.
    expectError(await members(outsider, partnerId), 403, "forbidden");
    expectError(await api.get(`/partners/${partnerId}/members`), 401, "unauthorized");
  });

  it("owners add members by e-mail or user id; checks of the body", async () => {
    const add = (body: unknown, as = owner) => api.post(`/partners/${partnerId}/members`, { token: as.accessToken, body });
    expectError(await add({ role: "member" }), 400, "missing_user");
    expectError(await add({ email: member.email, role: "admin" }), 400, "invalid_role");
    expectError(await add({ email: "nobody@intake.example" }), 404, "user_not_found");
    const res = await add({ email: member.email.toUpperCase() });
    expect(res.status, res.text).toBe(201);
    expect(res.body.member).toMatchObject({ user_id: member.userId, role: "member" });
    expectError(await add({ userId: member.userId }), 409, "already_member");
    // A member reads the list but cannot add anyone; an outsider cannot either.
    const listed = await members(member, partnerId);
    expect(listed.body.members.map((m: any) => [m.user_id, m.role])).toEqual([
      [owner.userId, "owner"],
      [member.userId, "member"],
    ]);
    expectError(await add({ userId: outsider.userId }, member), 403, "forbidden");
    expectError(await add({ userId: member.userId }, outsider), 403, "forbidden");
    expectError(await api.post(`/partners/x/members`, { token: owner.accessToken, body: { userId: member.userId } }), 400, "invalid_partner_id");
  });

  it("a personal access token of the partner reads members but cannot manage them", async () => {
    const pat = await api.post("/partner/access-tokens", { token: owner.accessToken, body: { name: "members" } });
    expect((await members({ accessToken: pat.body.token }, partnerId)).status).toBe(200);
    expectError(
      await api.post(`/partners/${partnerId}/members`, { token: pat.body.token, body: { userId: outsider.userId } }),
      403,
      "forbidden",
    );
    const otherPat = await api.post("/partner/access-tokens", { token: outsider.accessToken, body: { name: "x" } });
    expectError(await members({ accessToken: otherPat.body.token }, partnerId), 403, "forbidden");
  });

  it("roles change; the last owner can be neither demoted nor removed (409 last_owner)", async () => {
    const patch = (userId: string, body: unknown, as = owner) =>
      api.request("PATCH", `/partners/${partnerId}/members/${userId}`, { token: as.accessToken, body });
    const remove = (userId: string, as = owner) => api.delete(`/partners/${partnerId}/members/${userId}`, { token: as.accessToken });

    expectError(await patch(owner.userId, { role: "member" }), 409, "last_owner");
    expectError(await remove(owner.userId), 409, "last_owner");
    expectError(await patch(member.userId, { role: "boss" }), 400, "invalid_role");
    expectError(await patch(member.userId, {}), 400, "invalid_role");
    expectError(await patch("no-such-user", { role: "owner" }), 404, "not_found");
    expectError(await patch(owner.userId, { role: "member" }, member), 403, "forbidden");
    expectError(await remove(owner.userId, outsider), 403, "forbidden");

    const promoted = await patch(member.userId, { role: "owner" });
    expect(promoted.status, promoted.text).toBe(200);
    expect(promoted.body.member).toMatchObject({ user_id: member.userId, role: "owner" });
    // Two owners now: the first may step down, and is then a member without rights to manage.
    const demoted = await patch(owner.userId, { role: "member" });
    expect(demoted.body.member.role).toBe("member");
    expectError(await patch(member.userId, { role: "member" }, owner), 403, "forbidden");
    // The remaining owner removes the former one, and cannot remove themselves.
    const removed = await remove(owner.userId, member);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body).toEqual({ ok: true, user_id: owner.userId });
    expectError(await remove(member.userId, member), 409, "last_owner");
    expectError(await members(owner, partnerId), 404, "no_partner");
  });

  it("a member may leave on their own", async () => {
    const boss = await emailUser(api, "boss");
    const pid = (await bootstrap(boss)).partner.partner_id;
    const helper = await emailUser(api, "helper");
    await api.post(`/partners/${pid}/members`, { token: boss.accessToken, body: { userId: helper.userId } });
    const left = await api.delete(`/partners/${pid}/members/${helper.userId}`, { token: helper.accessToken });
    expect(left.status, left.text).toBe(200);
    expect((await members(boss, pid)).body.members).toHaveLength(1);
  });
});
