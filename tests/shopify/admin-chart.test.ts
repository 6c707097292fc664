// The merchant admin's home (/app) carries the shop's analytics events per day
// for its chart, read from the same counts as GET /partner/analytics.
import { beforeAll, describe, expect, it } from "vitest";
import { adminRequest, APP_URL, FakeAdminApi, shopifyTestApp } from "../support/shopify.ts";

let api: FakeAdminApi;
let home: typeof import("~/routes/app._index");

beforeAll(async () => {
  ({ api } = await shopifyTestApp());
  home = await import("~/routes/app._index");
});

describe("/app events chart", () => {
  it("loads 14 days of event counts for the shop's partner", async () => {
    const shop = api.addShop(`chart-${Math.random().toString(36).slice(2, 9)}.myshopify.com`).domain;
    const first = await home.loader({ request: await adminRequest(shop, "/app"), params: {}, context: {} });
    expect(first.analytics).toMatchObject({ days: 14, totals: {} });
    expect(first.analytics.series).toHaveLength(14);
    const { trackEvent } = await import("~/domains/analytics/analytics.server");
    const { db } = await import("~/db.server");
    const partnerId = (await db.platformShop.findFirstOrThrow({ where: { domain: shop } })).partnerId;
    // As the shop's basket drawer sends them: the page token signed for its partner, from the app's origin.
    const { analyticsPageToken } = await import("~/domains/analytics/page-token.server");
    const page = { origin: new URL(APP_URL).origin, pageToken: await analyticsPageToken(partnerId), widgetToken: null, address: "127.0.0.1" };
    await trackEvent({ partnerId, event: "dialog_open" }, page);
    await trackEvent({ partnerId, event: "dialog_open" }, page);
    const data = await home.loader({ request: await adminRequest(shop, "/app"), params: {}, context: {} });
    expect(data.analytics).toMatchObject({ partner_id: partnerId, totals: { dialog_open: 2 } });
  });
});
