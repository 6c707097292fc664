// Install and provisioning through the real Shopify library: session-token
// requests to the /app loaders, token exchange and GraphQL answered by a fake
// Admin API, records in the real database.
import { beforeAll, describe, expect, inject, it } from "vitest";
import { adminRequest, API_KEY, API_SECRET, FakeAdminApi, settle, shopifyTestApp } from "../support/shopify.ts";
import { SHOPIFY_OFF_MESSAGE } from "~/admin/shopify-off";

let api: FakeAdminApi;
let db: typeof import("~/db.server").db;
let layout: typeof import("~/routes/app").loader;
let home: typeof import("~/routes/app._index").loader;
let provisionShop: typeof import("~/domains/shops/provisioning.server").provisionShop;

beforeAll(async () => {
  ({ api } = await shopifyTestApp());
  ({ db } = await import("~/db.server"));
  ({ loader: layout } = await import("~/routes/app"));
  ({ loader: home } = await import("~/routes/app._index"));
  ({ provisionShop } = await import("~/domains/shops/provisioning.server"));
});

const args = (request: Request) => ({ request, params: {}, context: {} });

/** Opens the admin home the way the browser does: layout and page loaders on one request. */
async function openHome(shop: string) {
  const request = await adminRequest(shop, "/app");
  const [, page] = await Promise.all([layout(args(request)), home(args(request))]);
  return page;
}

async function recordsOf(domain: string) {
  const shops = await db.platformShop.findMany({ where: { domain } });
  const partnerIds = shops.map((s) => s.partnerId);
  return {
    shops,
    partners: await db.partner.findMany({ where: { id: { in: partnerIds } } }),
    keys: await db.apiKey.findMany({ where: { partnerId: { in: partnerIds } } }),
    baskets: await db.basketConfig.findMany({ where: { partnerId: { in: partnerIds } } }),
  };
}

describe("install", () => {
  it("provisions exactly one partner, trialing shop, live key, basket and the shop metafields", async () => {
    const fake = api.addShop("alpha-store.myshopify.com", { primaryHost: "www.alpha.example" });
    const before = api.tokenExchanges;
    const page = await openHome(fake.domain);
    // One authentication for layout and page (memoised per request).
    expect(api.tokenExchanges - before).toBe(1);

    const { shops, partners, keys, baskets } = await recordsOf(fake.domain);
    expect(shops).toHaveLength(1);
    expect(partners).toHaveLength(1);
    expect(keys).toHaveLength(1);
    expect(baskets).toHaveLength(1);
    const [shop, partner, key, basket] = [shops[0]!, partners[0]!, keys[0]!, baskets[0]!];
    expect(partner.plan).toBe("free");
    expect(shop.active).toBe(true);
    expect(shop.subscriptionStatus).toBe("trialing");
    expect(shop.trialEndsAt.getTime() - shop.installedAt.getTime()).toBe(14 * 86_400_000);
    // The storefront page (docs/api.md "Shops"): a handle from the shop's name, off until the merchant publishes it.
    expect(shop.handle).toBe("shop-alpha-store");
    expect(shop.published).toBe(false);
    expect(key.environment).toBe("live");
    expect(key.status).toBe("active");
    expect(key.key).toMatch(/^pk_live_/);
    expect(key.allowedDomains).toEqual(["alpha-store.myshopify.com", "www.alpha.example"]);
    expect(basket.publicId).toMatch(/^bkt_/);
    expect(basket.shopId).toBe(shop.id);

    const sets = api.callsTo(fake.domain, "metafieldsSet");
    expect(sets).toHaveLength(1);
    expect(sets[0]!.variables).toEqual({
      metafields: [
        { ownerId: fake.gid, namespace: "$app:wishlist", key: "public_key", type: "single_line_text_field", value: key.key },
        { ownerId: fake.gid, namespace: "$app:wishlist", key: "basket_id", type: "single_line_text_field", value: basket.publicId },
        { ownerId: fake.gid, namespace: "$app:wishlist", key: "badge", type: "boolean", value: "true" },
        { ownerId: fake.gid, namespace: "$app:wishlist", key: "app_url", type: "single_line_text_field", value: process.env.APP_URL!.replace(/\/$/, "") },
        // The extension's scripts come from Shopify's CDN and read the anon key from their tag.
        { ownerId: fake.gid, namespace: "$app:wishlist", key: "anon_key", type: "single_line_text_field", value: await (await import("~/domains/secrets/secrets.server")).getAnonKey() },
      ],
    });

    expect(page.overview.shop.domain).toBe(fake.domain);
    expect(page.overview.plan.id).toBe("free");
    expect(page.overview.trial.daysLeft).toBe(14);
    expect(page.checklist).toEqual({
      // Shopify's deep link that switches the app embed on in the theme editor (the merchant saves).
      themeEditorUrl: `https://alpha-store.myshopify.com/admin/themes/current/editor?context=apps&template=index&activateAppId=${API_KEY}/app-embed`,
      keyActive: true,
      firstSaveSeen: false,
    });
  });

  it("an admin load writes the script metafields a shop lacks (installed before the scripts moved to Shopify's CDN) or has stale, once", async () => {
    const fake = api.addShop("gamma-old.myshopify.com");
    await openHome(fake.domain);
    fake.metafields.delete("anon_key");
    fake.metafields.set("app_url", { type: "single_line_text_field", value: "https://old-address.example" });
    const before = api.callsTo(fake.domain, "metafieldsSet").length;
    await openHome(fake.domain);
    const sets = api.callsTo(fake.domain, "metafieldsSet").slice(before);
    expect(sets).toHaveLength(1);
    const anonKey = await (await import("~/domains/secrets/secrets.server")).getAnonKey();
    expect(sets[0]!.variables).toEqual({
      metafields: [
        { ownerId: fake.gid, namespace: "$app:wishlist", key: "app_url", type: "single_line_text_field", value: process.env.APP_URL!.replace(/\/$/, "") },
        { ownerId: fake.gid, namespace: "$app:wishlist", key: "anon_key", type: "single_line_text_field", value: anonKey },
      ],
    });
    // Current now: the next load writes nothing.
    await openHome(fake.domain);
    expect(api.callsTo(fake.domain, "metafieldsSet")).toHaveLength(before + 1);
  });

  it("two concurrent first loads (two afterAuth runs) still create one of each", async () => {
    const fake = api.addShop("beta-store.myshopify.com");
    const before = api.tokenExchanges;
    await Promise.all([openHome(fake.domain), openHome(fake.domain)]);
    expect(api.tokenExchanges - before).toBe(2);
    const { shops, partners, keys, baskets } = await recordsOf(fake.domain);
    expect([shops.length, partners.length, keys.length, baskets.length]).toEqual([1, 1, 1, 1]);
    expect(await db.partner.count({ where: { email: fake.email } })).toBe(1);
  });

  it("provisioning raced four ways leaves one partner, shop, key and basket", async () => {
    const fake = api.addShop("gamma-store.myshopify.com");
    const graphql = adminGraphql(fake.domain);
    const results = await Promise.all([1, 2, 3, 4].map(() => provisionShop({ shopDomain: fake.domain, graphql })));
    expect(new Set(results.map((r) => r.apiKey.id)).size).toBe(1);
    const { shops, partners, keys, baskets } = await recordsOf(fake.domain);
    expect([shops.length, partners.length, keys.length, baskets.length]).toEqual([1, 1, 1, 1]);
    expect(await db.partner.count({ where: { email: fake.email } })).toBe(1);
  });

  it("a reinstall reactivates the partner, shop and key instead of creating new ones", async () => {
    const fake = api.addShop("delta-store.myshopify.com", { primaryHost: "shop.delta.example" });
    await openHome(fake.domain);
    const first = await recordsOf(fake.domain);
    const shop = first.shops[0]!;
    const key = first.keys[0]!;
    // What the app/uninstalled webhook leaves behind: inactive shop, revoked key, no sessions.
    // (and a shop from before storefront handles: it gets one on the reinstall).
    await db.platformShop.update({ where: { id: shop.id }, data: { active: false, uninstalledAt: new Date(), handle: null } });
    await db.apiKey.update({ where: { id: key.id }, data: { status: "revoked", revokedAt: new Date() } });
    await db.session.deleteMany({ where: { shop: fake.domain } });
    // The merchant moved the store to a new primary domain meanwhile.
    fake.primaryHost = "www.delta-new.example";

    const before = api.tokenExchanges;
    const page = await openHome(fake.domain);
    expect(api.tokenExchanges - before).toBe(1);
    const again = await recordsOf(fake.domain);
    expect(again.shops.map((s) => s.id)).toEqual([shop.id]);
    expect(again.partners.map((p) => p.id)).toEqual([shop.partnerId]);
    expect(again.keys.map((k) => k.id)).toEqual([key.id]);
    expect(again.baskets.map((b) => b.id)).toEqual(first.baskets.map((b) => b.id));
    const reactivated = again.shops[0]!;
    expect(reactivated.active).toBe(true);
    expect(reactivated.uninstalledAt).toBeNull();
    expect(reactivated.handle).toBe("shop-delta-store");
    // No second trial on reinstall.
    expect(reactivated.trialEndsAt.getTime()).toBe(shop.trialEndsAt.getTime());
    const reKey = again.keys[0]!;
    expect(reKey.status).toBe("active");
    expect(reKey.revokedAt).toBeNull();
    expect(reKey.allowedDomains).toEqual(["delta-store.myshopify.com", "www.delta-new.example", "shop.delta.example"]);
    expect(page.checklist.keyActive).toBe(true);
    expect(fake.metafields.get("public_key")?.value).toBe(key.key);
  });
});

describe("authorization", () => {
  it("each shop's admin sees only its own shop and usage", async () => {
    const one = api.addShop("epsilon-store.myshopify.com");
    const two = api.addShop("zeta-store.myshopify.com");
    await openHome(one.domain);
    await openHome(two.domain);
    const shopOne = await db.platformShop.findUniqueOrThrow({ where: { domain: one.domain } });
    const { currentPeriod } = await import("~/domains/metering/usage");
    await db.usageCounter.create({ data: { partnerId: shopOne.partnerId, period: currentPeriod().period, saves: 170, total: 170 } });

    const pageOne = await openHome(one.domain);
    const pageTwo = await openHome(two.domain);
    expect(pageOne.overview.shop.domain).toBe(one.domain);
    expect(pageOne.overview.usage).toMatchObject({ used: 170, limit: 200, level: "warning" });
    expect(pageOne.checklist.firstSaveSeen).toBe(true);
    expect(pageTwo.overview.shop.domain).toBe(two.domain);
    expect(pageTwo.overview.usage.used).toBe(0);
    expect(pageTwo.checklist.firstSaveSeen).toBe(false);
  });

  it("a session token signed with another secret gets no data", async () => {
    const fake = api.addShop("eta-store.myshopify.com");
    const { RequestType, setUpValidRequest } = await import("@shopify/shopify-api/test-helpers");
    const forged = await setUpValidRequest(
      { type: RequestType.Bearer, store: "eta-store", apiKey: "test-api-key-install", apiSecretKey: `${API_SECRET}-wrong` },
      new Request(`https://wish.example/app?shop=${fake.domain}`),
    );
    const result = await settle(() => home(args(forged)));
    expect(result.ok).toBe(false);
    expect((result as { thrown: Response }).thrown).toBeInstanceOf(Response);
    expect(((result as { thrown: Response }).thrown).status).toBe(401);
    expect(await db.platformShop.count({ where: { domain: fake.domain } })).toBe(0);
  });
});

describe("with Shopify off", () => {
  // The standard shared server runs without the Shopify app's keys.
  const server = inject("server");

  it("/app and /auth answer a 503 page that says why, the rest of the app runs", async () => {
    for (const path of ["/app", "/app/plans", "/auth/login"]) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(503);
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(await res.text(), path).toContain(SHOPIFY_OFF_MESSAGE);
    }
    const webhook = await fetch(`${server.url}/webhooks/app_subscriptions/update`, { method: "POST", body: "{}" });
    // Like every webhook address while the app is off (docs/shopify.md "Shopify webhooks").
    expect(webhook.status).toBe(404);
    expect(await webhook.json()).toMatchObject({ error: "not_found" });
    expect((await fetch(`${server.baseUrl}/health`)).status).toBe(200);
    // Shopify opens the app at its application_url with ?shop=: that goes to the admin.
    const opened = await fetch(`${server.url}/?shop=alpha-store.myshopify.com&host=abc`, { redirect: "manual" });
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toBe("/app?shop=alpha-store.myshopify.com&host=abc");
    expect((await fetch(`${server.url}/`)).status).toBe(200);
  });
});

/** An admin.graphql stand-in that goes through the same fake Admin API. */
function adminGraphql(shop: string) {
  return async (query: string, options?: { variables?: Record<string, unknown> }) =>
    api.handle(`https://${shop}/admin/api/2026-01/graphql.json`, { body: JSON.stringify({ query, variables: options?.variables }) });
}
