// The Buy-now link of alert e-mails is no open redirect (docs/alerts.md
// "Clicks"): the built server redirects only to an installed, active shop's
// page; the address of a scraped page (which anyone can price and save, and
// so have an alert e-mail link to) is shown on a page as a plain link
// instead, in the link's language, laid out at 375 and 1280 px in Chromium.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, seriousA11yViolations } from "../support/browser.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { shopifyTestApp } from "../support/shopify.ts";

let server: TestServer;
let db: typeof import("~/db.server").db;

beforeAll(async () => {
  server = await startServer({});
  await shopifyTestApp(server.databaseUrl);
  ({ db } = await import("~/db.server"));
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

const unique = () => Math.random().toString(36).slice(2, 10);
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const get = (url: string) => fetch(url, { redirect: "manual", headers: { "user-agent": BROWSER } });

/** A shop installed (or uninstalled) with its own domain and a primary domain. */
async function shop(active: boolean) {
  const partner = await db.partner.create({ data: { name: "Shop", email: `${unique()}@shop.test` } });
  const name = `s${unique()}`;
  return db.platformShop.create({
    data: { partnerId: partner.id, domain: `${name}.myshopify.com`, primaryDomain: `www.${name}.example`, active, trialEndsAt: new Date(), ...(active ? {} : { uninstalledAt: new Date() }) },
  });
}

/** An alert whose e-mail's Buy-now link leads to `buyUrl`, for a save of the product at `canonicalUrl`. */
async function alertTo(canonicalUrl: string, buyUrl: string, sourceShopId: number | null = null) {
  const user = await db.user.create({ data: { id: `u_${unique()}`, email: `${unique()}@shopper.test`, isAnonymous: false } });
  const list = await db.wishlist.create({ data: { shareToken: `t_${unique()}${unique()}`, ownerId: user.id, name: "Mine" } });
  const product = await db.product.create({ data: { canonicalUrl, sourceShopId } });
  const item = await db.listItem.create({ data: { wishlistId: list.id, productId: product.id, addedByUserId: user.id } });
  const clickKey = `${unique()}${unique()}${unique()}`.slice(0, 22).padEnd(22, "x");
  const alert = await db.alertSent.create({
    data: { dedupKey: `price_drop:${user.id}:${product.id}:-:${unique()}`, userId: user.id, listItemId: item.id, kind: "price_drop", title: "Lamp", clickKey, buyUrl },
  });
  return { id: alert.id, link: (lang: string) => `${server.url}/alerts/buy?token=${clickKey}&lang=${lang}` };
}

describe("alert Buy-now link", () => {
  it("redirects to installed shops' pages only; a scraped page's address is shown as a plain link, and the click still counts", async () => {
    // An installed shop's product page (recorded by its webhooks): redirected, on either of its domains.
    const installed = await shop(true);
    const page = `https://${installed.primaryDomain}/products/lamp-${unique()}`;
    const own = await alertTo(page, `${page}?variant=11&wish_ref=abc`, installed.id);
    const res = await get(own.link("en"));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${page}?variant=11&wish_ref=abc`);
    const onMyshopify = await alertTo(`https://${installed.domain}/products/x-${unique()}`, `https://${installed.domain}/products/x?variant=1`);
    expect((await get(onMyshopify.link("en"))).status).toBe(302);

    // A page an attacker priced and saved: no redirect, a page with the address as a plain link.
    const evil = `https://priced-${unique()}.example/phish?next=%2Flogin`;
    const scraped = await alertTo(evil, `${evil}&wish_ref=abc`);
    const leave = await get(scraped.link("en"));
    expect(leave.status).toBe(200);
    expect(leave.headers.get("location")).toBeNull();
    expect(leave.headers.get("referrer-policy")).toBe("no-referrer");
    expect(leave.headers.get("cache-control")).toBe("no-store");
    const html = await leave.text();
    expect(html).toContain("You are leaving this site");
    expect(html).toContain(`This link leads to ${new URL(evil).hostname}`);
    expect(html).toMatch(/<a href="https:\/\/priced-[a-z0-9]+\.example\/phish\?next=%2Flogin&amp;wish_ref=abc" rel="noopener noreferrer nofollow"/);
    expect(html).not.toMatch(/http-equiv="refresh"/i);
    // The click counts all the same: the shopper followed the e-mail's link.
    expect((await db.alertSent.findUniqueOrThrow({ where: { id: scraped.id } })).clickedAt).not.toBeNull();
    const german = await (await get(scraped.link("de"))).text();
    expect(german).toContain("Du verlässt diese Seite");
    expect(german).toContain("Weiter zu:");

    // A shop's host used for another product, or a product recorded by a shop that has since been uninstalled: not trusted.
    const gone = await shop(false);
    const goneUrl = `https://${gone.primaryDomain}/products/lamp`;
    expect((await get((await alertTo(goneUrl, goneUrl, gone.id)).link("en"))).status).toBe(200);
    // A product whose source shop is installed but whose stored address points elsewhere.
    const elsewhere = await alertTo(`https://${installed.primaryDomain}/products/y-${unique()}`, `https://other-${unique()}.example/products/y`, installed.id);
    expect((await get(elsewhere.link("en"))).status).toBe(200);

    // The page at 375 and 1280 px: no horizontal overflow, axe-clean, the link has a real target; screenshots to look at.
    const shots = path.resolve("tests/screenshots");
    mkdirSync(shots, { recursive: true });
    const browser = await launchBrowser();
    try {
      for (const width of [375, 1280]) {
        const view = await browser.newPage({ viewport: { width, height: 800 } });
        const loaded = await view.goto(scraped.link(width === 375 ? "de" : "en"));
        expect(loaded?.status()).toBe(200);
        expect(view.url()).toBe(scraped.link(width === 375 ? "de" : "en"));
        expect(await view.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        expect(await view.locator("a[rel='noopener noreferrer nofollow']").getAttribute("href")).toBe(`${evil}&wish_ref=abc`);
        expect(await seriousA11yViolations(view)).toEqual([]);
        await view.screenshot({ path: path.join(shots, `alert-leave-${width}.png`), fullPage: true });
        await view.close();
      }
    } finally {
      await browser.close();
    }
  }, 120_000);
});
