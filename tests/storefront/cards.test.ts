// Hearts on product cards and the header link (the app embed's wish-cards.js
// with the real widget.js and basket-integration.js): a fixture store with
// Dawn's own markup and CSS on another origin than the app, a 24-card
// collection page (theme-hearts.test.ts covers Dawn and Horizon page by page).
// Every card gets a heart, saved state comes from one request per page, the
// page never shifts (layout-shift entries sum to 0), the header count follows
// saves and removals, and the drawer adds to Shopify's cart with the signed
// item reference as the `_wish_ref` line-item property.
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedApi } from "../support/api.ts";
import { launchBrowser, seriousA11yViolations, watchConsole } from "../support/browser.ts";
import { provisioner } from "../support/provision.ts";
import { root } from "../support/server.ts";
import { FIXTURE_PATHS, IMAGE_HOST, PRODUCTS, productSvg, renderEmbed, startThemeShop, type ThemeShop } from "../support/theme-fixture.ts";
import { until } from "../support/wait.ts";

let api: Awaited<ReturnType<typeof sharedApi>>;
let browser: Browser;
let shop: ThemeShop;
let key: string;
let basketId: string;
const HOST = "cards.shop.test";
const screenshots = path.join(root, "tests/screenshots");

beforeAll(async () => {
  api = await sharedApi();
  const p = await provisioner(api.server);
  [browser, shop] = await Promise.all([launchBrowser(), startThemeShop()]);
  const partner = await p.partner("growth");
  key = (await p.key(partner.id, { domains: [HOST] })).key as string;
  const baskets = await import("~/domains/baskets/baskets.server");
  basketId = (await baskets.createBasketConfig(partner.id, { layout: "drawer" })).basket.id;
  shop.setEmbed(await renderEmbed({ appUrl: api.server.url, publicKey: key, anonKey: api.anonKey, assetBase: shop.cdnOrigin, basketId, settings: { header_link: "drawer" } }));
  mkdirSync(screenshots, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await shop?.stop();
});

/**
 * Sums the page's layout-shift entries from the first paint on (buffered), as CLS counts them, apart
 * from one kind: the theme's header icons' box growing to the left when the header link joins it
 * (the icons keep their places; when the header painted before the embed at the end of <body> was
 * parsed, Chrome reports the box's moved left edge). Those go to wishHeaderShift.
 */
function observeShifts() {
  const w = window as any;
  w.wishShift = 0;
  w.wishHeaderShift = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as any[]) {
      if (e.hadRecentInput) continue;
      const header = e.sources.every((s: any) => s.node?.matches?.(".header__icons") && s.previousRect.right === s.currentRect.right);
      if (header) w.wishHeaderShift += e.value;
      else w.wishShift += e.value;
    }
  }).observe({ type: "layout-shift", buffered: true });
}

interface Shopper {
  context: BrowserContext;
  console: { errors: string[] };
  /** Saved-state requests (init, which answers the saved state with the widget token, the restore and `/widget/saved-products`): "<path> <page address>". */
  savedRequests: string[];
}

async function shopper(): Promise<Shopper> {
  // Reduced motion: Dawn's cards slide and fade in on load, and axe would judge contrast mid-fade.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" });
  await context.addInitScript(observeShifts);
  // Product images from "Shopify's CDN" (https, as in /products/<handle>.js).
  await context.route(`https://${IMAGE_HOST}/**`, (route) => {
    const body = productSvg(path.basename(new URL(route.request().url()).pathname, ".svg"));
    return body ? route.fulfill({ contentType: "image/svg+xml", body }) : route.fulfill({ status: 404 });
  });
  const savedRequests: string[] = [];
  context.on("request", (req) => {
    const pathname = new URL(req.url()).pathname;
    if (/^\/api\/v1\/widget\/(init|session-restore|saved-products)$/.test(pathname)) savedRequests.push(`${pathname} ${req.frame().page().url()}`);
  });
  return { context, console: watchConsole(context), savedRequests };
}

const collection = () => shop.origin(HOST) + FIXTURE_PATHS.collection;
const heartOf = (page: Page, handle: string) => page.locator(`.wish-heart[data-wish-cards="${handle}"]`);
const pressed = (page: Page, handle: string) => heartOf(page, handle).getAttribute("aria-pressed");
const count = (page: Page) => page.locator(".wish-header-count").textContent();
const shift = (page: Page) => page.evaluate(() => (window as any).wishShift as number);

/** Clicks a card's heart and returns the save dialog it opened. */
async function clickHeart(page: Page, handle: string): Promise<Page> {
  const [popup] = await Promise.all([page.waitForEvent("popup"), heartOf(page, handle).click()]);
  await popup.waitForLoadState();
  return popup;
}

describe("hearts on product cards", () => {
  it("a 24-card collection page: a heart on every card, no saved-state request without a saved product, no layout shift, no a11y offence", async () => {
    const me = await shopper();
    const page = await me.context.newPage();
    await page.goto(collection());
    await expect.poll(() => page.locator(".wish-heart[aria-pressed]").count()).toBe(24);
    // One heart per card, inside its card, labelled.
    for (const p of PRODUCTS) expect(await heartOf(page, p.handle).count(), p.handle).toBe(1);
    expect(await page.locator(".wish-heart").first().getAttribute("aria-label")).toBe(`Add ${PRODUCTS[0]!.title} to wishlist`);
    // The header link sits in the theme's header icons and is visible.
    expect(await page.locator(".header__icons .wish-header-link").isVisible()).toBe(true);
    // A first-time visitor has no widget session id: nothing to ask the app about.
    expect(me.savedRequests).toEqual([]);
    expect(await shift(page)).toBe(0);
    // The header icons' box growing by one icon: far below what counts (CLS 0.1 is "good").
    expect(await page.evaluate(() => (window as any).wishHeaderShift as number)).toBeLessThan(0.001);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(me.console.errors).toEqual([]);
    await me.context.close();
  });

  it("a card the selector does not know gets its heart from Shopify's shopify:product:view event; the product page's and a dialog's view events add none", async () => {
    const me = await shopper();
    const page = await me.context.newPage();
    await page.goto(collection());
    await expect.poll(() => page.locator(".wish-heart[aria-pressed]").count()).toBe(24);
    // As a theme's view-event element dispatches it from the card itself (the payload on the event, as Shopify's library sets it).
    await page.evaluate(() => {
      const view = (target: Element, context: string, handle: string) => {
        const ev = new Event("shopify:product:view", { bubbles: true }) as Event & Record<string, unknown>;
        Object.assign(ev, { context, selectedOptions: [], product: { id: "gid://shopify/Product/1", handle, title: handle } });
        target.dispatchEvent(ev);
      };
      const tile = document.createElement("div");
      tile.className = "tile";
      tile.innerHTML = '<a href="/products/item-24">Knit beanie 3</a><p>Recommended</p>';
      document.querySelector("main")!.append(tile);
      view(tile, "recommendation", "item-24");
      view(document.querySelector("h1, h2")!, "page", "item-01");
      // A quick view dialog announcing its product (context "dialog", or none as a product section sends it).
      const dialog = document.createElement("dialog");
      dialog.innerHTML = '<div class="quick-view"><a href="/products/item-03">Canvas tote 1</a></div>';
      document.body.append(dialog);
      dialog.show();
      view(dialog.querySelector(".quick-view")!, "dialog", "item-03");
      const ev = new Event("shopify:product:view", { bubbles: true });
      Object.assign(ev, { product: { handle: "item-03" } });
      dialog.querySelector(".quick-view")!.dispatchEvent(ev);
    });
    await expect.poll(() => page.locator('.tile .wish-heart[aria-pressed]').count()).toBe(1);
    expect(await page.locator(".tile .wish-heart").getAttribute("aria-label")).toBe("Add Knit beanie 3 to wishlist");
    expect(await page.locator("h1 .wish-heart, h2 .wish-heart, main > .wish-heart, dialog .wish-heart").count()).toBe(0);
    expect(await page.locator(".wish-heart").count()).toBe(25);
    expect(me.console.errors).toEqual([]);
    await me.context.close();
  });

  it("saves from a card (guest dialog), shows the saved state after the save and after a reload from one request, the header count follows saves and removals", async () => {
    const me = await shopper();
    const page = await me.context.newPage();
    await page.goto(collection());
    await expect.poll(() => page.locator(".wish-heart[aria-pressed]").count()).toBe(24);
    const [a, b] = [PRODUCTS[2]!, PRODUCTS[1]!];

    // First save: the product's data comes from the shop's /products/<handle>.js.
    const first = await clickHeart(page, a.handle);
    await first.getByRole("button", { name: "Continue as guest" }).click();
    await first.getByRole("heading", { name: "Saved to “My wishlist”" }).waitFor();
    expect(await first.textContent(".product .name")).toBe(a.title);
    await first.close();
    await expect.poll(() => pressed(page, a.handle)).toBe("true");
    await expect.poll(() => count(page)).toBe("1");
    expect(shop.requests).toContain(`GET /products/${a.handle}.js`);

    // Reload: the saved heart and the count, from one request for all 24 cards (init, answering the saved state too).
    // The dialog granted the page a credential before it showed "Saved": the page's read that set off
    // (restore, then saved-products) belongs to the page before the reload.
    await until("the page's read after the grant", () => me.savedRequests.some((r) => r.startsWith("/api/v1/widget/saved-products ")));
    me.savedRequests.length = 0;
    await page.reload();
    await expect.poll(() => pressed(page, a.handle)).toBe("true");
    await expect.poll(() => count(page)).toBe("1");
    expect(await page.locator('.wish-heart[aria-pressed="true"]').count()).toBe(1);
    expect(me.savedRequests).toEqual([`/api/v1/widget/init ${collection()}`]);
    expect(await shift(page)).toBe(0);

    // Second save (one click: the shopper is known), then the count is 2.
    const second = await clickHeart(page, b.handle);
    await second.getByRole("heading", { name: "Saved to “My wishlist”" }).waitFor();
    await second.close();
    await expect.poll(() => pressed(page, b.handle)).toBe("true");
    await expect.poll(() => count(page)).toBe("2");

    // Removing the first from its heart's dialog: the heart empties, the count drops. The dialog's
    // grant makes the page read its saved state again; that read is answered before the removal and
    // delivered after it (as a slow network may), and must not mark the removed product saved again.
    let removed!: () => void;
    const removal = new Promise<void>((resolve) => (removed = resolve));
    const stale: Promise<void>[] = [];
    // (After a change the page asks with `?fresh=1`: the primary database where a read replica serves heart state.)
    await page.route("**/api/v1/widget/saved-products*", async (route) => {
      if (stale.length) return route.continue(); // reads after the first go through
      const answer = route.fetch().then(async (res) => {
        await removal;
        await route.fulfill({ response: res });
      });
      stale.push(answer);
      await answer;
    });
    const again = await clickHeart(page, a.handle);
    await again.getByRole("heading", { name: "Already saved in “My wishlist”" }).waitFor();
    await expect.poll(() => stale.length).toBe(1);
    await again.getByRole("button", { name: "Remove from list" }).click();
    await again.getByRole("heading", { name: "Removed from “My wishlist”" }).waitFor();
    removed();
    await Promise.all(stale);
    await again.close();
    await expect.poll(() => pressed(page, a.handle)).toBe("false");
    await expect.poll(() => count(page)).toBe("1");
    expect(await shift(page)).toBe(0);

    // The page with hearts and the count, at phone and desktop widths.
    await page.reload();
    await expect.poll(() => count(page)).toBe("1");
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await page.screenshot({ path: path.join(screenshots, `cards-collection-${width}.png`) });
    }
    expect(await shift(page)).toBe(0);
    expect(me.console.errors).toEqual([]);
    await me.context.close();
  });

  it("the header link opens the drawer; add to cart posts the item to /cart/add.js with its signed reference, then shows the cart", async () => {
    const me = await shopper();
    const page = await me.context.newPage();
    await page.goto(collection());
    const p = PRODUCTS[5]!;
    await expect.poll(() => heartOf(page, p.handle).getAttribute("aria-pressed")).toBe("false");
    const dialog = await clickHeart(page, p.handle);
    await dialog.getByRole("button", { name: "Continue as guest" }).click();
    await dialog.getByRole("heading", { name: "Saved to “My wishlist”" }).waitFor();
    await dialog.close();
    await expect.poll(() => count(page)).toBe("1");

    await page.locator(".wish-header-link").click();
    const drawer = page.frameLocator(`iframe[src^="${api.server.url}/dialog/basket"]`);
    await drawer.getByText(p.title).waitFor();
    const before = shop.cartAdds.length;
    await Promise.all([page.waitForURL((u) => u.pathname === "/cart"), drawer.getByRole("button", { name: `Add to cart: ${p.title}` }).click()]);
    const added = shop.cartAdds.slice(before) as Array<{ items: Array<{ id: number; quantity: number; properties: { _wish_ref: string } }> }>;
    expect(added).toHaveLength(1);
    expect(added[0]!.items).toEqual([{ id: p.variantId, quantity: 1, properties: { _wish_ref: expect.stringMatching(/^\d+\.[\w-]{22}$/) } }]);
    expect(me.console.errors).toEqual([]);
    await me.context.close();
  });

  it("a theme that configured Shopify's updateCart action gets the line through it, with the reference as a line attribute", async () => {
    const me = await shopper();
    const page = await me.context.newPage();
    await page.goto(collection());
    const p = PRODUCTS[9]!;
    await expect.poll(() => heartOf(page, p.handle).getAttribute("aria-pressed")).toBe("false");
    const dialog = await clickHeart(page, p.handle);
    await dialog.getByRole("button", { name: "Continue as guest" }).click();
    await dialog.getByRole("heading", { name: "Saved to “My wishlist”" }).waitFor();
    await dialog.close();
    // The theme's own cart actions (as Shopify.actions holds them once a theme configured them).
    await page.evaluate(() => {
      const w = window as any;
      w.cartCalls = [];
      const updateCart = async (payload: unknown) => {
        w.cartCalls.push(["updateCart", payload]);
        return { cart: {}, userErrors: [] };
      };
      updateCart.isDefault = () => false;
      w.Shopify.actions = { updateCart, openCart: async () => void w.cartCalls.push(["openCart"]) };
    });
    await page.locator(".wish-header-link").click();
    const drawer = page.frameLocator(`iframe[src^="${api.server.url}/dialog/basket"]`);
    await drawer.getByRole("button", { name: `Add to cart: ${p.title}` }).click();
    await expect.poll(() => page.evaluate(() => (window as any).cartCalls.length)).toBe(2);
    const calls = await page.evaluate(() => (window as any).cartCalls);
    expect(calls[0]).toEqual([
      "updateCart",
      {
        lines: [
          {
            merchandiseId: `gid://shopify/ProductVariant/${p.variantId}`,
            quantity: 1,
            attributes: [{ key: "_wish_ref", value: expect.stringMatching(/^\d+\.[\w-]{22}$/) }],
          },
        ],
      },
    ]);
    expect(calls[1]).toEqual(["openCart"]);
    // The drawer closed; the AJAX cart was not used; the page stayed.
    expect(await page.locator("iframe").count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe(FIXTURE_PATHS.collection);
    expect(me.console.errors).toEqual([]);
    await me.context.close();
  });
});
