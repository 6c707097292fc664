// Trial and billing: the plans page asks Shopify for a subscription, the
// admin load and the app_subscriptions/update webhook move the partner's plan
// and the shop's subscription_status, and the widget follows over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminRequest, API_KEY, FakeAdminApi, settle, shopifyTestApp, webhookRequest, type FakeShop } from "../support/shopify.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { apiFor, type Api } from "../support/api.ts";

let api: FakeAdminApi;
let db: typeof import("~/db.server").db;
let layout: typeof import("~/routes/app").loader;
let plansLoader: typeof import("~/routes/app.plans").loader;
let plansAction: typeof import("~/routes/app.plans").action;
let webhook: typeof import("~/routes/webhooks.app_subscriptions.update").action;
let usageRecord: typeof import("~/domains/metering/usage.server").usageRecord;
let server: TestServer;
let publicApi: Api;

beforeAll(async () => {
  const app = await shopifyTestApp();
  api = app.api;
  ({ db } = await import("~/db.server"));
  ({ loader: layout } = await import("~/routes/app"));
  ({ loader: plansLoader, action: plansAction } = await import("~/routes/app.plans"));
  ({ action: webhook } = await import("~/routes/webhooks.app_subscriptions.update"));
  ({ usageRecord } = await import("~/domains/metering/usage.server"));
  // The public API over real HTTP on the same database (Shopify is not needed there).
  server = await startServer({ DATABASE_URL: app.databaseUrl, SHOPIFY_API_KEY: "", SHOPIFY_API_SECRET: "" });
  publicApi = await apiFor(server);
});

afterAll(async () => {
  await server?.stop();
});

const args = (request: Request) => ({ request, params: {}, context: {} });

async function openPlans(shop: string) {
  const request = await adminRequest(shop, "/app/plans");
  const [, page] = await Promise.all([layout(args(request)), plansLoader(args(request))]);
  return page;
}

async function post(shop: string, form: Record<string, string>) {
  return settle(async () => plansAction(args(await adminRequest(shop, "/app/plans", { method: "POST", form }))));
}

async function installed(name: string) {
  const fake = api.addShop(`${name}.myshopify.com`, { primaryHost: `www.${name}.example` });
  await openPlans(fake.domain);
  const shop = await db.platformShop.findUniqueOrThrow({ where: { domain: fake.domain }, include: { partner: true } });
  const key = await db.apiKey.findFirstOrThrow({ where: { partnerId: shop.partnerId } });
  return { fake, shop, key };
}

const state = (domain: string) =>
  db.platformShop.findUniqueOrThrow({ where: { domain }, include: { partner: true } }).then((s) => ({
    plan: s.partner.plan,
    status: s.subscriptionStatus,
    subscription: s.plan,
  }));

const init = (key: string, host: string) =>
  publicApi.post("/widget/init", { headers: { authorization: `Bearer ${key}` }, body: { origin: `https://${host}` } });

function activate(fake: FakeShop, name: string, id = `gid://shopify/AppSubscription/${name.replace(/\W/g, "")}-${fake.domain}`) {
  fake.activeSubscriptions = [{ id, name, status: "ACTIVE", test: true, trialDays: 14, currentPeriodEnd: null }];
  return id;
}

function subscriptionEvent(shop: string, id: string, name: string, status: string, webhookId?: string, secret?: string) {
  return webhookRequest(
    "app_subscriptions/update",
    shop,
    { app_subscription: { admin_graphql_api_id: id, name, status, admin_graphql_api_shop_id: "gid://shopify/Shop/1" } },
    { webhookId, secret },
  );
}

describe("plans page", () => {
  it("shows the plan, trial, usage and the six subscriptions", async () => {
    const { fake } = await installed("plans-store");
    const page = await openPlans(fake.domain);
    expect(page.overview.plan.id).toBe("free");
    expect(page.overview.trial.daysLeft).toBe(14);
    expect(page.overview.usage).toMatchObject({ used: 0, limit: 200 });
    expect(page.offers.map((o) => [o.name, o.variants.map((v) => [v.name, v.amountUsd, v.interval])])).toEqual([
      ["Starter", [["Starter", 19, "monthly"], ["Starter (yearly)", 182.4, "yearly"]]],
      ["Growth", [["Growth", 49, "monthly"], ["Growth (yearly)", 470.4, "yearly"]]],
      ["Scale", [["Scale", 99, "monthly"], ["Scale (yearly)", 950.4, "yearly"]]],
    ]);
    expect(page.offers.every((o) => o.trialDays === 14)).toBe(true);
    expect(page.badge).toEqual({ shown: true, canHide: false });
  });

  it("Choose asks Shopify for the subscription and answers with the confirmation redirect", async () => {
    const { fake } = await installed("choose-store");
    const result = await post(fake.domain, { intent: "subscribe", plan: "Growth (yearly)" });
    expect(result.ok).toBe(false);
    const thrown = (result as { thrown: Response }).thrown;
    expect(thrown).toBeInstanceOf(Response);
    // App Bridge's fetch gets a 401 naming the confirmation page (GUIDE 9).
    expect(thrown.status).toBe(401);
    expect(thrown.headers.get("x-shopify-api-request-failure-reauthorize-url")).toMatch(
      /^https:\/\/choose-store\.myshopify\.com\/admin\/charges\/confirm\?id=/,
    );
    expect(fake.subscriptionRequests).toHaveLength(1);
    expect(fake.subscriptionRequests[0]).toMatchObject({
      name: "Growth (yearly)",
      test: true,
      trialDays: 14,
      returnUrl: `https://admin.shopify.com/store/choose-store/apps/${API_KEY}/app/plans`,
      lineItems: [{ plan: { appRecurringPricingDetails: { price: { amount: 470.4, currencyCode: "USD" }, interval: "ANNUAL" } } }],
    });
    // Nothing changes until the merchant confirms.
    expect(await state(fake.domain)).toEqual({ plan: "free", status: "trialing", subscription: null });
  });

  it("an unknown plan or intent is a 400 with an error body, never a crash", async () => {
    const { fake } = await installed("bad-input-store");
    const unknown = await post(fake.domain, { intent: "subscribe", plan: "Platinum" });
    expect(unknown.ok).toBe(true);
    const value = (unknown as { value: { data: unknown; init: { status: number } } }).value;
    expect(value.init.status).toBe(400);
    expect(value.data).toMatchObject({ error: "invalid_plan" });
    const nonsense = await post(fake.domain, { intent: "delete-everything" });
    expect((nonsense as { value: { init: { status: number } } }).value.init.status).toBe(400);
    expect(fake.subscriptionRequests).toHaveLength(0);
  });
});

describe("subscription state", () => {
  it("an expired trial blocks /widget/init until a plan is bought; confirming lifts it and the Free pause", async () => {
    const { fake, shop, key } = await installed("expired-store");
    await db.platformShop.update({ where: { id: shop.id }, data: { trialEndsAt: new Date(Date.now() - 60_000) } });
    const { currentPeriod } = await import("~/domains/metering/usage");
    await db.usageCounter.create({ data: { partnerId: shop.partnerId, period: currentPeriod().period, saves: 200, total: 200 } });
    expect((await usageRecord(shop.partnerId)).blocked).toBe(true);

    const refused = await init(key.key, "www.expired-store.example");
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: "subscription_required", trial_expired: true });
    expect((await openPlans(fake.domain)).overview.trial).toMatchObject({ daysLeft: 0, expired: true });

    // The merchant confirmed the charge: the next admin load sees it.
    activate(fake, "Starter");
    const page = await openPlans(fake.domain);
    expect(page.overview.plan.id).toBe("starter");
    expect(await state(fake.domain)).toEqual({ plan: "starter", status: "active", subscription: "Starter" });
    expect((await usageRecord(shop.partnerId)).blocked).toBe(false);
    // The admin ran in this process, the public API is another instance: its cached key
    // configuration follows within CONFIG_CACHE_TTL_MS (2 s).
    await expect.poll(async () => (await init(key.key, "www.expired-store.example")).status, { timeout: 5_000, interval: 100 }).toBe(200);
    const accepted = await init(key.key, "www.expired-store.example");
    expect(accepted.status).toBe(200);
    expect(accepted.body.partner_id).toBe(shop.partnerId);
  });

  it("a cancelled subscription returns the partner to Free on the next admin load", async () => {
    const { fake } = await installed("cancel-store");
    activate(fake, "Scale");
    await openPlans(fake.domain);
    expect(await state(fake.domain)).toEqual({ plan: "scale", status: "active", subscription: "Scale" });
    fake.activeSubscriptions = [];
    await openPlans(fake.domain);
    expect(await state(fake.domain)).toEqual({ plan: "free", status: "cancelled", subscription: null });
  });

  it("test charges do not count where billing is live", async () => {
    const { syncSubscription } = await import("~/domains/shops/subscription.server");
    const { fake } = await installed("live-billing-store");
    const result = await syncSubscription(fake.domain, [{ id: "gid://shopify/AppSubscription/9", name: "Growth", status: "ACTIVE", test: true }], {
      acceptTest: false,
    });
    expect(result).toEqual({ changed: null, plan: "free" });
    expect(await state(fake.domain)).toEqual({ plan: "free", status: "trialing", subscription: null });
  });
});

describe("branding badge", () => {
  it("can be hidden on paid plans only, and comes back on a downgrade", async () => {
    const { fake } = await installed("badge-store");
    const refused = await post(fake.domain, { intent: "badge", shown: "false" });
    const refusal = (refused as { value: { data: unknown; init: { status: number } } }).value;
    expect(refusal.init.status).toBe(403);
    expect(refusal.data).toMatchObject({ error: "plan_required" });
    expect(fake.metafields.get("badge")?.value).toBe("true");

    const id = activate(fake, "Growth");
    const hidden = await post(fake.domain, { intent: "badge", shown: "false" });
    expect((hidden as { value: unknown }).value).toEqual({ ok: true, badge: { shown: false, canHide: true } });
    expect(fake.metafields.get("badge")).toEqual({ type: "boolean", value: "false" });
    expect((await openPlans(fake.domain)).badge).toEqual({ shown: false, canHide: true });

    fake.activeSubscriptions = [];
    const res = await webhook(args(subscriptionEvent(fake.domain, id, "Growth", "CANCELLED")));
    expect(res.status).toBe(200);
    expect(await state(fake.domain)).toMatchObject({ plan: "free" });
    expect(fake.metafields.get("badge")?.value).toBe("true");
  });
});

describe("Switch to Free", () => {
  it("a Growth merchant switches to Free: Shopify cancels that subscription, the plan follows, the webhook after it changes nothing", async () => {
    const { fake } = await installed("leave-growth-store");
    const id = activate(fake, "Growth");
    const before = await openPlans(fake.domain);
    expect([before.overview.plan.id, before.overview.subscription.status]).toEqual(["growth", "active"]);

    const result = await post(fake.domain, { intent: "free" });
    expect(result.ok).toBe(true);
    expect((result as { value: unknown }).value).toEqual({ ok: true, switched: true });
    expect(fake.cancelRequests).toEqual([{ id, prorate: true }]);
    expect(await state(fake.domain)).toEqual({ plan: "free", status: "cancelled", subscription: null });
    const after = await openPlans(fake.domain);
    expect(after.overview.plan).toEqual({ id: "free", name: "Free" });
    expect(after.overview.subscription).toEqual({ status: "cancelled", name: null });
    expect(after.offers.find((o) => o.id === "growth")!.current).toBe(false);

    // Shopify's app_subscriptions/update for the same cancellation follows: recorded already, nothing moves.
    const hook = await webhook(args(subscriptionEvent(fake.domain, id, "Growth", "CANCELLED", "wh-leave-1")));
    expect(hook.status).toBe(200);
    expect(await state(fake.domain)).toEqual({ plan: "free", status: "cancelled", subscription: null });
    expect(fake.cancelRequests).toHaveLength(1);
  });

  it("Shopify's refusal (userErrors) is shown and changes nothing", async () => {
    const { fake } = await installed("refused-cancel-store");
    const id = activate(fake, "Growth");
    await openPlans(fake.domain);
    fake.refuseCancel = "The subscription cannot be cancelled right now";
    const result = await post(fake.domain, { intent: "free" });
    const value = (result as { value: { data: { error: string; message: string }; init: { status: number } } }).value;
    expect(value.init.status).toBe(409);
    expect(value.data).toEqual({ error: "cancel_failed", message: "Shopify did not cancel the subscription: The subscription cannot be cancelled right now" });
    expect(fake.cancelRequests).toEqual([{ id, prorate: true }]);
    expect(await state(fake.domain)).toEqual({ plan: "growth", status: "active", subscription: "Growth" });
    expect(fake.activeSubscriptions.map((s) => s.id)).toEqual([id]);
  });

  it("a merchant on Free has nothing to leave: 409, and Shopify is not asked", async () => {
    const { fake } = await installed("free-leave-store");
    const result = await post(fake.domain, { intent: "free" });
    const value = (result as { value: { data: { error: string }; init: { status: number } } }).value;
    expect(value.init.status).toBe(409);
    expect(value.data.error).toBe("no_subscription");
    expect(fake.cancelRequests).toEqual([]);
    expect(await state(fake.domain)).toEqual({ plan: "free", status: "trialing", subscription: null });
  });
});

describe("app_subscriptions/update webhook", () => {
  it("activates, cancels, ignores a declined new subscription, and processes a duplicate delivery once", async () => {
    const { fake } = await installed("hook-store");
    const growth = "gid://shopify/AppSubscription/hook-growth";
    const first = await webhook(args(subscriptionEvent(fake.domain, growth, "Growth", "ACTIVE", "wh-hook-1")));
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ ok: true });
    expect(await state(fake.domain)).toEqual({ plan: "growth", status: "active", subscription: "Growth" });

    // Declining an upgrade leaves the current plan alone.
    await webhook(args(subscriptionEvent(fake.domain, "gid://shopify/AppSubscription/hook-scale", "Scale", "DECLINED", "wh-hook-2")));
    expect(await state(fake.domain)).toEqual({ plan: "growth", status: "active", subscription: "Growth" });

    const cancelled = await webhook(args(subscriptionEvent(fake.domain, growth, "Growth", "CANCELLED", "wh-hook-3")));
    expect(await cancelled.json()).toEqual({ ok: true });
    expect(await state(fake.domain)).toEqual({ plan: "free", status: "cancelled", subscription: null });

    // Shopify delivers the first event again: recognised by its id, not applied twice.
    const duplicate = await webhook(args(subscriptionEvent(fake.domain, growth, "Growth", "ACTIVE", "wh-hook-1")));
    expect(duplicate.status).toBe(200);
    expect(await duplicate.json()).toEqual({ ok: true, duplicate: true });
    expect(await state(fake.domain)).toEqual({ plan: "free", status: "cancelled", subscription: null });
  });

  it("a declined first subscription keeps a trialing shop on Free", async () => {
    const { fake } = await installed("decline-store");
    const res = await webhook(args(subscriptionEvent(fake.domain, "gid://shopify/AppSubscription/d1", "Starter", "DECLINED")));
    expect(res.status).toBe(200);
    expect(await state(fake.domain)).toEqual({ plan: "free", status: "trialing", subscription: null });
  });

  it("a wrong HMAC is 401 with an error body and changes nothing", async () => {
    const { fake } = await installed("forged-store");
    const res = await webhook(args(subscriptionEvent(fake.domain, "gid://shopify/AppSubscription/f1", "Scale", "ACTIVE", "wh-forged", "not-the-secret")));
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: "unauthorized" });
    expect(await state(fake.domain)).toEqual({ plan: "free", status: "trialing", subscription: null });
    // The id was not consumed: the genuine delivery still counts.
    const genuine = await webhook(args(subscriptionEvent(fake.domain, "gid://shopify/AppSubscription/f1", "Scale", "ACTIVE", "wh-forged")));
    expect(await genuine.json()).toEqual({ ok: true });
  });

  it("missing Shopify headers are 400 and a malformed payload is 400, both with error bodies", async () => {
    const { fake } = await installed("headers-store");
    const bareRes = await webhook(args(new Request("https://wish.example/webhooks/app_subscriptions/update", { method: "POST", body: "{}" })));
    expect(bareRes.status).toBe(400);
    expect(await bareRes.json()).toMatchObject({ error: "invalid_webhook" });
    const malformed = await webhook(args(webhookRequest("app_subscriptions/update", fake.domain, { something: "else" })));
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: "invalid_input" });
  });
});

describe("SHOPIFY_BILLING_TEST", () => {
  it("defaults to test charges outside production and refuses values it cannot read", async () => {
    const { billingIsTest, parseEnv } = await import("~/env.server");
    expect(billingIsTest(parseEnv({ NODE_ENV: "production" }))).toBe(false);
    expect(billingIsTest(parseEnv({ NODE_ENV: "development" }))).toBe(true);
    expect(billingIsTest(parseEnv({ NODE_ENV: "production", SHOPIFY_BILLING_TEST: "true" }))).toBe(true);
    expect(billingIsTest(parseEnv({ NODE_ENV: "test", SHOPIFY_BILLING_TEST: "0" }))).toBe(false);
    expect(() => parseEnv({ SHOPIFY_BILLING_TEST: "maybe" })).toThrow(/SHOPIFY_BILLING_TEST/);
  });
});
