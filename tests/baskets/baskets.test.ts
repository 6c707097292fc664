// Baskets (SPEC 4.5, 6.2, 7.4): the public configuration read, events, the
// partner routes with webhook plan gating (SPEC 8.1), and the signed test
// call to a real local receiver.
import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, sharedApi, wish, type Api } from "../support/api.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { sql } from "../support/sql.ts";

let api: Awaited<ReturnType<typeof sharedApi>>;

interface Partner {
  id: number;
  token: string;
}

/** A partner on the plan and a personal access token for it, made with the operator CLI. */
async function newPartner(databaseUrl: string, plan: string): Promise<Partner> {
  const n = Math.random().toString(36).slice(2, 8);
  const partner = (await wish(databaseUrl, ["partner", "create", "--name", `Shop ${n}`, "--email", `${n}@shop.test`, "--plan", plan])).partner;
  const pat = (await wish(databaseUrl, ["pat", "create", "--partner", String(partner.partner_id)])).access_token;
  return { id: partner.partner_id, token: pat.token };
}

const partners: Record<string, Partner> = {};

beforeAll(async () => {
  api = await sharedApi();
  const plans = ["free", "starter", "growth", "scale", "enterprise"];
  const made = await Promise.all(plans.map((p) => newPartner(api.server.databaseUrl, p)));
  plans.forEach((p, i) => (partners[p] = made[i]!));
});

const createBasket = (client: Api, partner: Partner, body: unknown) =>
  client.post("/partner/baskets", { token: partner.token, body });

const BASKET_ID = /^bkt_[A-Za-z0-9_-]{22}$/;
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

// ---------------------------------------------------------------- a receiver

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local webhook receiver: /ok answers 202, /fail answers 500. */
async function startReceiver(): Promise<{ server: Server; port: number; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body });
      res.writeHead(req.url === "/fail" ? 500 : 202, { "content-type": "text/plain" }).end("thanks");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as { port: number }).port, received };
}

/** Standard Webhooks verification, written out independently of the app's code. */
function verifySignature(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const expected = createHmac("sha256", key).update(`${headers["webhook-id"]}.${headers["webhook-timestamp"]}.${body}`).digest("base64");
  return String(headers["webhook-signature"]).split(" ").includes(`v1,${expected}`);
}

// ---------------------------------------------------------------- public read

describe("GET /baskets/{id}", () => {
  it("gives the storefront configuration without credentials, never the webhook URL or secret", async () => {
    const created = await createBasket(api, partners.growth!, {
      layout: "modal",
      primaryColor: "#AABBCC",
      checkout: { mode: "cart", cartUrl: "/cart/add?id={variant_id}&quantity={quantity}" },
      webhookUrl: "https://hooks.example.com/basket",
    });
    expect(created.status).toBe(201);
    const id = created.body.basket.id as string;
    expect(id).toMatch(BASKET_ID);
    expect(created.body.webhookSecret).toMatch(SECRET);
    expect(Buffer.from(created.body.webhookSecret.slice(6), "base64")).toHaveLength(32);

    const res = await api.get(`/baskets/${id}`, { noApiKey: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id,
      layout: "modal",
      primaryColor: "#aabbcc",
      checkout: { mode: "cart", cartUrl: "/cart/add?id={variant_id}&quantity={quantity}" },
      webhook: true,
    });
    expect(res.text).not.toContain("whsec_");
    expect(res.text).not.toContain("hooks.example.com");
  });

  it("has defaults: drawer, #111111, cart checkout, no webhook", async () => {
    const created = await createBasket(api, partners.free!, {});
    expect(created.status).toBe(201);
    expect(created.body).not.toHaveProperty("webhookSecret");
    const res = await api.get(`/baskets/${created.body.basket.id}`, { noApiKey: true });
    expect(res.body).toEqual({ id: created.body.basket.id, layout: "drawer", primaryColor: "#111111", checkout: { mode: "cart" }, webhook: false });
  });

  it.each(["bkt_AAAAAAAAAAAAAAAAAAAAAA", "nonsense", "bkt_" + "x".repeat(100)])("unknown id %s → 404 not_found", async (id) => {
    const res = await api.get(`/baskets/${id}`, { noApiKey: true });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("not_found");
  });
});

// ---------------------------------------------------------------- events

describe("POST /baskets/{id}/event", () => {
  let basketId: string;
  beforeAll(async () => {
    basketId = (await createBasket(api, partners.starter!, { layout: "page" })).body.basket.id;
  });

  const TYPES = ["open", "close", "item_added", "item_removed", "checkout_started", "checkout_completed"];

  it("accepts every event type without credentials and stores it", async () => {
    for (const type of TYPES) {
      const res = await api.post(`/baskets/${basketId}/event`, { noApiKey: true, body: { type, meta: { variant_id: 7, quantity: 2 } } });
      expect(res.status, type).toBe(201);
      expect(res.body).toEqual({ ok: true });
    }
    const rows = await sql<{ type: string; meta: unknown }>(
      api.server.databaseUrl,
      `SELECT e."type", e."meta" FROM "BasketEvent" e JOIN "BasketConfig" b ON b."id" = e."basketConfigId" WHERE b."publicId" = ? ORDER BY e."id"`,
      [basketId],
    );
    expect(rows.map((r) => r.type)).toEqual(TYPES);
    const meta = typeof rows[0]!.meta === "string" ? JSON.parse(rows[0]!.meta) : rows[0]!.meta;
    expect(meta).toEqual({ variant_id: 7, quantity: 2 });
  });

  it.each([[{ type: "purchase" }], [{}], [{ type: 3 }], [[]], ['"open"']])("body %j → 400 invalid_input listing the types", async (body) => {
    const res = await api.post(`/baskets/${basketId}/event`, { noApiKey: true, body });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_input");
    for (const type of TYPES) expect(res.body.message).toContain(type);
    expect(res.body.allowed_types).toEqual(TYPES);
  });

  it("meta must be an object of at most 2 KB of JSON", async () => {
    const ok = await api.post(`/baskets/${basketId}/event`, { noApiKey: true, body: { type: "open", meta: { note: "x".repeat(2000) } } });
    expect(ok.status).toBe(201);
    for (const meta of [{ note: "x".repeat(2100) }, [1, 2], "text", null]) {
      const res = await api.post(`/baskets/${basketId}/event`, { noApiKey: true, body: { type: "open", meta } });
      expect(res.status, JSON.stringify(meta).slice(0, 20)).toBe(400);
      expect(res.body.error).toBe("invalid_input");
    }
  });

  it("an unknown basket → 404 not_found", async () => {
    const res = await api.post("/baskets/bkt_AAAAAAAAAAAAAAAAAAAAAA/event", { noApiKey: true, body: { type: "open" } });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("not_found");
  });
});

// ---------------------------------------------------------------- partner routes

describe("partner basket routes", () => {
  it("webhooks only on Growth, Scale and Enterprise: others get 403 webhooks_not_available with the plan", async () => {
    for (const plan of ["free", "starter"]) {
      const res = await createBasket(api, partners[plan]!, { webhookUrl: "https://hooks.example.com/x" });
      expect(res.status, plan).toBe(403);
      expect(res.body).toMatchObject({ error: "webhooks_not_available", plan });
    }
    for (const plan of ["growth", "scale", "enterprise"]) {
      const res = await createBasket(api, partners[plan]!, { webhookUrl: "https://hooks.example.com/x", checkout: { mode: "webhook" } });
      expect(res.status, plan).toBe(201);
      expect(res.body.webhookSecret).toMatch(SECRET);
      expect(res.body.basket).toMatchObject({ webhook: true, webhookUrl: "https://hooks.example.com/x", checkout: { mode: "webhook" } });
    }
  });

  it.each([
    [{ layout: "sidebar" }],
    [{ primaryColor: "red" }],
    [{ primaryColor: "#12345" }],
    [{ checkout: { mode: "shipping" } }],
    [{ checkout: { mode: "cart", cartUrl: "/cart/add?id={variant_id}" } }],
    [{ checkout: { mode: "cart", cartUrl: "javascript:alert('{variant_id}{quantity}')" } }],
    [{ checkout: { mode: "cart", extra: 1 } }],
    [{ checkout: { mode: "webhook" } }],
    [{ webhookUrl: "ftp://hooks.example.com/x" }],
    [{ webhookUrl: "not a url" }],
    [{ unknownField: true }],
  ])("invalid input %j → 400 invalid_input", async (body) => {
    const res = await createBasket(api, partners.growth!, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_input");
  });

  it("needs a partner: 401 without a token, 404 no_partner for a user without one", async () => {
    const none = await api.get("/partner/baskets");
    expect(none.status).toBe(401);
    const user = await api.anonymousUser();
    for (const res of [
      await api.get("/partner/baskets", { token: user.accessToken }),
      await api.post("/partner/baskets", { token: user.accessToken, body: {} }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toBe("no_partner");
    }
  });

  it("lists only the partner's own configurations, without secrets", async () => {
    const partner = await newPartner(api.server.databaseUrl, "scale");
    const a = await createBasket(api, partner, { layout: "modal" });
    const b = await createBasket(api, partner, { webhookUrl: "https://hooks.example.com/y" });
    const res = await api.get("/partner/baskets", { token: partner.token });
    expect(res.status).toBe(200);
    expect(res.body.baskets.map((x: { id: string }) => x.id)).toEqual([a.body.basket.id, b.body.basket.id]);
    expect(res.body.baskets[1]).toMatchObject({ webhook: true, webhookUrl: "https://hooks.example.com/y" });
    expect(res.text).not.toContain("whsec_");
  });

  it("PUT updates fields, issues a secret when a webhook is first set, and removes it with null", async () => {
    const created = await createBasket(api, partners.growth!, {});
    const id = created.body.basket.id;
    const put = (body: unknown, partner = partners.growth!) => api.put(`/partner/baskets/${id}`, { token: partner.token, body });

    const styled = await put({ layout: "page", primaryColor: "#00FF00" });
    expect(styled.status).toBe(200);
    expect(styled.body.basket).toMatchObject({ id, layout: "page", primaryColor: "#00ff00", webhook: false });
    expect(styled.body).not.toHaveProperty("webhookSecret");

    const hooked = await put({ webhookUrl: "https://hooks.example.com/z" });
    expect(hooked.body.webhookSecret).toMatch(SECRET);
    // Changing the URL keeps the secret (not shown again).
    const moved = await put({ webhookUrl: "https://hooks.example.com/z2" });
    expect(moved.status).toBe(200);
    expect(moved.body).not.toHaveProperty("webhookSecret");
    const [row] = await sql<{ webhookSecret: string }>(api.server.databaseUrl, `SELECT "webhookSecret" FROM "BasketConfig" WHERE "publicId" = ?`, [id]);
    expect(row!.webhookSecret).toBe(hooked.body.webhookSecret);

    const removed = await put({ webhookUrl: null });
    expect(removed.body.basket).toMatchObject({ webhook: false, webhookUrl: null });
    expect((await api.get(`/baskets/${id}`, { noApiKey: true })).body.webhook).toBe(false);

    const other = await put({ layout: "modal" }, partners.scale!);
    expect(other.status).toBe(404);
    expect(other.body.error).toBe("not_found");
  });

  it("PUT of a webhook on a plan without webhooks → 403; other fields stay editable", async () => {
    const id = (await createBasket(api, partners.starter!, {})).body.basket.id;
    const hook = await api.put(`/partner/baskets/${id}`, { token: partners.starter!.token, body: { webhookUrl: "https://hooks.example.com/q" } });
    expect(hook.status).toBe(403);
    expect(hook.body).toMatchObject({ error: "webhooks_not_available", plan: "starter" });
    const styled = await api.put(`/partner/baskets/${id}`, { token: partners.starter!.token, body: { layout: "modal" } });
    expect(styled.status).toBe(200);
  });

  it("test-webhook: 403 on a plan without webhooks, 400 no_webhook without a URL, 404 for another partner's basket", async () => {
    const freeBasket = (await createBasket(api, partners.free!, {})).body.basket.id;
    const denied = await api.post(`/partner/baskets/${freeBasket}/test-webhook`, { token: partners.free!.token });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ error: "webhooks_not_available", plan: "free" });

    const plain = (await createBasket(api, partners.growth!, {})).body.basket.id;
    const none = await api.post(`/partner/baskets/${plain}/test-webhook`, { token: partners.growth!.token });
    expect(none.status).toBe(400);
    expect(none.body.error).toBe("no_webhook");

    const foreign = await api.post(`/partner/baskets/${plain}/test-webhook`, { token: partners.scale!.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe("not_found");
  });

  it("wish basket create makes a configuration and prints the secret once", async () => {
    const growth = partners.growth!;
    const out = await wish(api.server.databaseUrl, ["basket", "create", "--partner", String(growth.id), "--layout", "modal", "--color", "#123abc", "--webhook", "https://hooks.example.com/cli"]);
    expect(out.basket).toMatchObject({ layout: "modal", primaryColor: "#123abc", webhook: true });
    expect(out.basket.id).toMatch(BASKET_ID);
    expect(out.webhookSecret).toMatch(SECRET);
    const res = await api.get(`/baskets/${out.basket.id}`, { noApiKey: true });
    expect(res.status).toBe(200);
  });
});

// ---------------------------------------------------------------- the test call

describe("POST /partner/baskets/{id}/test-webhook", () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let server: TestServer;
  let local: Api;
  let partner: Partner;

  beforeAll(async () => {
    receiver = await startReceiver();
    // Only this server may reach the receiver on loopback (GUIDE section 8 test allowance).
    server = await startServer({ FETCH_TEST_ALLOW_HOSTS: `127.0.0.1:${receiver.port}` });
    local = await apiFor(server);
    partner = await newPartner(server.databaseUrl, "growth");
  });

  afterAll(async () => {
    await server?.stop();
    await new Promise((resolve) => receiver?.server.close(resolve));
  });

  it("sends {type: 'basket.test'} signed with the basket's secret and answers the receiver's status", async () => {
    const created = await createBasket(local, partner, { webhookUrl: `http://127.0.0.1:${receiver.port}/ok` });
    expect(created.status).toBe(201);
    const { id } = created.body.basket;
    const secret = created.body.webhookSecret as string;
    const before = receiver.received.length;

    const res = await local.post(`/partner/baskets/${id}/test-webhook`, { token: partner.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, status: 202 });

    // Synchronous: the receiver has it by the time the answer arrives.
    expect(receiver.received).toHaveLength(before + 1);
    const got = receiver.received.at(-1)!;
    expect(got.path).toBe("/ok");
    expect(got.headers["content-type"]).toBe("application/json");
    const body = JSON.parse(got.body);
    expect(body).toEqual({ type: "basket.test", basket_id: id, sent_at: expect.any(String) });
    expect(Math.abs(Date.parse(body.sent_at) - Date.now())).toBeLessThan(60_000);
    expect(got.headers["webhook-id"]).toEqual(expect.any(String));
    expect(Math.abs(Number(got.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(60);
    expect(verifySignature(secret, got.headers, got.body)).toBe(true);
    // A different secret does not verify, so the check above means something.
    expect(verifySignature("whsec_" + Buffer.alloc(32, 1).toString("base64"), got.headers, got.body)).toBe(false);
  });

  it("a receiver answering 500 → 502 webhook_failed with its status", async () => {
    const { id } = (await createBasket(local, partner, { webhookUrl: `http://127.0.0.1:${receiver.port}/fail` })).body.basket;
    const res = await local.post(`/partner/baskets/${id}/test-webhook`, { token: partner.token });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ error: "webhook_failed", status: 500, message: expect.any(String) });
    expect(receiver.received.at(-1)!.path).toBe("/fail");
  });

  it("a private address without the test allowance is refused before connecting", async () => {
    const shared = await newPartner(api.server.databaseUrl, "growth");
    const before = receiver.received.length;
    for (const url of [`http://127.0.0.1:${receiver.port}/ok`, `http://localhost:${receiver.port}/ok`, "http://10.0.0.1/hook", "http://[::1]:9/hook"]) {
      const { id } = (await createBasket(api, shared, { webhookUrl: url })).body.basket;
      const res = await api.post(`/partner/baskets/${id}/test-webhook`, { token: shared.token });
      expect(res.status, url).toBe(502);
      expect(res.body, url).toMatchObject({ error: "webhook_failed", reason: "blocked_address" });
      expect(res.body).not.toHaveProperty("status");
    }
    expect(receiver.received).toHaveLength(before);
  });
});
