// Hearts on Shopify's own themes: Dawn 15.4.1 and Horizon 4.1.3 as their Liquid outputs them
// with their own CSS (tests/support/theme-pages.ts, tests/support/themes/), the app embed's
// wish-cards.js and the real widget.js. On home, collection and search pages every product card
// gets one heart, none goes into the quick-add dialog or the main product section, no badge sits
// under a heart, hearts survive the themes' filtering and sorting (Dawn replaces the grid's
// innerHTML, Horizon morphs the section in place with its own morph.js) and "load more", quick
// add's Close still closes, each heart is named after its product from the first paint and can
// be tapped, and the script reads no style or geometry (placement is CSS only).
// Horizon's card heart app block: the embed adds no second heart to a card holding one.
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedApi } from "../support/api.ts";
import { launchBrowser, seriousA11yViolations, watchConsole } from "../support/browser.ts";
import { provisioner } from "../support/provision.ts";
import { root } from "../support/server.ts";
import { ALL_PRODUCTS, cardHeartRenderer, FIXTURE_PATHS, IMAGE_HOST, PRODUCTS, productSvg, renderEmbed, startThemeShop, type FixturePage, type ThemeName, type ThemeShop } from "../support/theme-fixture.ts";
import { listing, searchResults } from "../support/theme-pages.ts";

const HOST = "hearts.shop.test";
const screenshots = path.join(root, "tests/screenshots");
let api: Awaited<ReturnType<typeof sharedApi>>;
let browser: Browser;
let key: string;
const shops: Partial<Record<ThemeName, ThemeShop>> = {};

/** The theme's product card element and where it shows its badges. */
const THEME = {
  dawn: { card: ".card-wrapper", media: ".card__inner", badge: ".card__inner .card__badge .badge", dialog: "quick-add-modal[open] [role=dialog]", close: "quick-add-modal[open] .quick-add-modal__toggle", quickAdd: "modal-opener button" },
  horizon: { card: "product-card", media: ".card-gallery", badge: ".product-badges", dialog: "dialog.quick-add-modal[open]", close: "dialog[open] .quick-add-modal__close", quickAdd: ".quick-add__button--choose" },
} as const;

const embedFor = (shop: ThemeShop, settings: Record<string, unknown> = {}) =>
  renderEmbed({ appUrl: api.server.url, publicKey: key, anonKey: api.anonKey, assetBase: shop.cdnOrigin, settings: { header_link: "page", ...settings } });

beforeAll(async () => {
  api = await sharedApi();
  const p = await provisioner(api.server);
  const partner = await p.partner("growth");
  key = (await p.key(partner.id, { domains: [HOST] })).key as string;
  const [b, dawn, horizon] = await Promise.all([launchBrowser(), startThemeShop({ theme: "dawn" }), startThemeShop({ theme: "horizon" })]);
  browser = b;
  Object.assign(shops, { dawn, horizon });
  for (const shop of [dawn, horizon]) shop.setEmbed(await embedFor(shop));
  mkdirSync(screenshots, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await Promise.all(Object.values(shops).map((s) => s?.stop()));
});

async function open(theme: ThemeName, pathname: string, width = 1280) {
  // Reduced motion: Dawn's cards slide and fade in on load, and axe would judge contrast mid-fade.
  const context = await browser.newContext({ viewport: { width, height: width < 700 ? 812 : 900 }, reducedMotion: "reduce" });
  await context.route(`https://${IMAGE_HOST}/**`, (route) => {
    const body = productSvg(path.basename(new URL(route.request().url()).pathname, ".svg"));
    return body ? route.fulfill({ contentType: "image/svg+xml", body }) : route.fulfill({ status: 404 });
  });
  await context.addInitScript(countLayoutReads);
  const console = watchConsole(context);
  const page = await context.newPage();
  await page.goto(shops[theme]!.origin(HOST) + pathname);
  return { context, page, console };
}

/** Counts style and layout reads made by wish-cards.js (each may force a style recalculation or layout of the page). */
function countLayoutReads() {
  const w = window as any;
  w.wishLayoutReads = 0;
  const mine = () => /\/wish-cards\.js/.test(new Error().stack ?? "");
  const wrap = (owner: any, name: string) => {
    const original = owner[name];
    owner[name] = function (this: unknown, ...args: unknown[]) {
      if (mine()) w.wishLayoutReads++;
      return original.apply(this, args);
    };
  };
  wrap(window, "getComputedStyle");
  wrap(Element.prototype, "getBoundingClientRect");
  wrap(Element.prototype, "getClientRects");
  for (const name of ["offsetWidth", "offsetHeight", "offsetTop", "offsetLeft", "clientWidth", "clientHeight"]) {
    const d = Object.getOwnPropertyDescriptor(HTMLElement.prototype, name) ?? Object.getOwnPropertyDescriptor(Element.prototype, name);
    if (!d?.get) continue;
    const get = d.get;
    Object.defineProperty(name.startsWith("offset") ? HTMLElement.prototype : Element.prototype, name, {
      ...d,
      get() {
        if (mine()) w.wishLayoutReads++;
        return get.call(this);
      },
    });
  }
}
const layoutReads = (page: Page) => page.evaluate(() => (window as any).wishLayoutReads as number);

interface CardState {
  handle: string;
  hearts: number;
  label: string | null;
  heart: { x: number; y: number; w: number; h: number } | null;
  /** What a tap on the heart's centre reaches: the heart, or what covers it. */
  hit: string | null;
  badge: { x: number; y: number; w: number; h: number } | null;
}

/** Every card of the theme on the page (outside dialogs): its hearts, the heart's name and box, the badge's box. */
const cards = (page: Page, theme: ThemeName): Promise<CardState[]> =>
  page.evaluate(
    ({ card, badge }) => {
      const box = (el: Element | null) => {
        if (!el) return null;
        const r = el.getBoundingClientRect();
        return { x: r.x, y: r.y, w: r.width, h: r.height };
      };
      return [...document.querySelectorAll(card)]
        .filter((c) => !c.closest("dialog, [role=dialog], product-info, .product-information"))
        .map((c) => {
          const hearts = c.querySelectorAll(".wish-heart");
          const handle = /\/products\/([\w-]+)/.exec(c.querySelector('a[href*="/products/"]')!.getAttribute("href")!)![1]!;
          const h = hearts[0];
          let hit: string | null = null;
          if (h) {
            const r = h.getBoundingClientRect();
            const top = r.width > 0 && r.top >= 0 && r.bottom <= innerHeight ? document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) : h;
            hit = top && h.contains(top) ? "heart" : (top?.outerHTML.slice(0, 80) ?? "nothing");
          }
          return { handle, hearts: hearts.length, label: h?.getAttribute("aria-label") ?? null, heart: box(h ?? null), hit, badge: box(c.querySelector(badge)) };
        });
    },
    THEME[theme],
  );

const overlaps = (a: CardState["heart"], b: CardState["badge"]) => !!a && !!b && a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** Waits until every card has a heart and widget.js has bound them all (aria-pressed set), then checks the page's invariants. */
async function expectOneHeartPerCard(page: Page, theme: ThemeName, handles: string[]) {
  await expect.poll(async () => (await cards(page, theme)).filter((c) => c.hearts === 1).length).toBe(handles.length);
  const state = await cards(page, theme);
  expect(state.map((c) => c.handle)).toEqual(handles);
  for (const c of state) {
    const p = ALL_PRODUCTS.find((q) => q.handle === c.handle)!;
    expect(c.hearts, c.handle).toBe(1);
    expect(c.label, c.handle).toBe(`Add ${p.title} to wishlist`);
    expect(overlaps(c.heart, c.badge), `${c.handle}: heart over the badge`).toBe(false);
    expect(c.hit, `${c.handle}: a tap on the heart reaches it`).toBe("heart");
  }
  // No heart anywhere but in a card: not in a dialog, not in the main product section.
  const stray = await page.evaluate((card) => [...document.querySelectorAll(".wish-heart")].filter((h) => !h.closest(card) || h.closest("dialog, [role=dialog], product-info, .product-information")).length, THEME[theme].card);
  expect(stray).toBe(0);
}

const handles = (list: Array<{ handle: string }>) => list.map((p) => p.handle);
const PAGES: Array<[FixturePage, string[]]> = [
  ["home", handles(PRODUCTS.slice(0, 8))],
  ["collection", handles(PRODUCTS)],
  ["search", handles(searchResults())],
  ["product", handles(PRODUCTS.slice(1, 5))],
];

describe.each(["dawn", "horizon"] as const)("hearts on %s", (theme) => {
  it.each(PAGES)("%s: one heart per card, named after the product, beside the badges, none in the product section; header link among the header icons; no a11y offence", async (pageName, expected) => {
    for (const width of [375, 1280]) {
      const { context, page, console } = await open(theme, FIXTURE_PATHS[pageName], width);
      await expectOneHeartPerCard(page, theme, expected);
      await expect.poll(() => page.locator(".wish-heart[aria-pressed]").count()).toBe(expected.length);
      // The header link sits among the theme's header icons, visible, and covers none of them.
      const header = await page.evaluate(() => {
        const link = document.querySelector(".wish-header-link")!;
        const r = link.getBoundingClientRect();
        const icons = [...link.parentElement!.parentElement!.querySelectorAll("a, button, summary")].filter((el) => el !== link && el.getBoundingClientRect().width > 0);
        // Themes let their 44 px icon boxes touch and overlap by a pixel or two; more would cover one.
        const covered = icons.filter((el) => {
          const b = el.getBoundingClientRect();
          return Math.min(r.right, b.right) - Math.max(r.x, b.x) > 4 && Math.min(r.bottom, b.bottom) - Math.max(r.y, b.y) > 4;
        });
        return { parent: link.parentElement!.matches(".header__icons, header-actions"), visible: r.width > 0 && r.height > 0, covered: covered.map((el) => el.outerHTML.slice(0, 80)) };
      });
      expect(header).toEqual({ parent: true, visible: true, covered: [] });
      // Placement is CSS only: the script reads no style and no geometry.
      expect(await layoutReads(page)).toBe(0);
      await page.screenshot({ path: path.join(screenshots, `hearts-${theme}-${pageName}-${width}.png`) });
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(console.errors).toEqual([]);
      await context.close();
    }
  });

  it("filtering, sorting and the next page re-render the grid the theme's way; every card keeps exactly one heart, for its own product", async () => {
    const { context, page, console } = await open(theme, FIXTURE_PATHS.collection);
    await expectOneHeartPerCard(page, theme, handles(PRODUCTS));
    // Sort: the same 24 card elements (Horizon's morph) or new ones (Dawn's innerHTML) now show other products.
    await page.evaluate(() => (window as any).fixtureTheme.render("sort_by=price-descending"));
    await expectOneHeartPerCard(page, theme, handles(listing({ sort: "price-descending" })));
    // Filter: in stock only.
    await page.evaluate(() => (window as any).fixtureTheme.render("filter.v.availability=1"));
    const available = handles(listing({ available: true }));
    await expectOneHeartPerCard(page, theme, available);
    // The next page's cards appended (Horizon's infinite scroll, a Dawn theme's "load more").
    await page.evaluate(() => (window as any).fixtureTheme.more("filter.v.availability=1&page=2"));
    await expectOneHeartPerCard(page, theme, [...available, ...handles(listing({ available: true, page: 2 }))]);
    expect(await layoutReads(page)).toBe(0);
    // A heart that moved with a re-render saves its card's product.
    const last = ALL_PRODUCTS.find((p) => p.handle === available[0])!;
    const heart = page.locator(`${THEME[theme].card}:has(a[href="/products/${last.handle}"]) .wish-heart`).first();
    expect(await heart.getAttribute("data-url")).toBe(`${shops[theme]!.origin(HOST)}/products/${last.handle}`);
    await page.screenshot({ path: path.join(screenshots, `hearts-${theme}-filtered-1280.png`) });
    expect(console.errors).toEqual([]);
    await context.close();
  });

  it("quick add opens the theme's dialog with the product; no heart goes into it, and its Close button closes it", async () => {
    for (const width of [375, 1280]) {
      const { context, page, console } = await open(theme, FIXTURE_PATHS.collection, width);
      await expectOneHeartPerCard(page, theme, handles(PRODUCTS));
      // The click moves the pointer over the card first (Horizon shows quick add on hover).
      await page.locator(THEME[theme].card).first().locator(THEME[theme].quickAdd).click();
      const dialog = page.locator(THEME[theme].dialog);
      await dialog.waitFor();
      await dialog.locator('form[action="/cart/add"]').waitFor({ state: "attached" });
      // Wait for what the dialog's content set off (mutations, Horizon's view event) to have been handled.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      expect(await dialog.locator(".wish-heart").count()).toBe(0);
      expect(await page.locator(".wish-heart").count()).toBe(PRODUCTS.length);
      await page.screenshot({ path: path.join(screenshots, `hearts-${theme}-quick-add-${width}.png`) });
      let popups = 0;
      page.on("popup", () => popups++);
      await page.locator(THEME[theme].close).click();
      await dialog.waitFor({ state: "hidden" });
      expect(popups).toBe(0);
      expect(console.errors).toEqual([]);
      await context.close();
    }
  });

  it("badges top right (the merchant's choice on Dawn, Horizon's default): every heart takes the top left corner", async () => {
    const shop = shops[theme]!;
    shop.setBadgePosition(theme === "dawn" ? "top right" : "top-right");
    try {
      const { context, page } = await open(theme, FIXTURE_PATHS.collection);
      await expectOneHeartPerCard(page, theme, handles(PRODUCTS));
      const state = await cards(page, theme);
      const withBadge = state.filter((c) => c.badge);
      expect(withBadge.length).toBeGreaterThan(0);
      for (const c of withBadge) expect(c.badge!.x, c.handle).toBeGreaterThan(c.heart!.x + c.heart!.w); // badge right of the heart
      const cardBox = await page.locator(THEME[theme].media).first().boundingBox();
      expect(state[0]!.heart!.x - cardBox!.x).toBeLessThan(cardBox!.width / 2);
      await page.screenshot({ path: path.join(screenshots, `hearts-${theme}-badges-top-right-1280.png`) });
      await context.close();
    } finally {
      shop.setBadgePosition(null);
    }
  });
});

describe("a theme known only by Shopify's view events", () => {
  it("with a card selector that matches nothing, every Horizon card gets its heart from its view-event payload, the first screen included", async () => {
    const shop = shops.horizon!;
    shop.setEmbed(await embedFor(shop, { card_selector: ".no-such-card" }));
    try {
      const { context, page, console } = await open("horizon", FIXTURE_PATHS.collection);
      await expectOneHeartPerCard(page, "horizon", handles(PRODUCTS));
      // Filtering morphs the section: the first four cards stay (same keys) and lose their hearts to the
      // morph, the rest are new; the payloads bring every heart back.
      await page.evaluate(() => (window as any).fixtureTheme.render("filter.v.availability=1"));
      await expectOneHeartPerCard(page, "horizon", handles(listing({ available: true })));
      expect(console.errors).toEqual([]);
      await context.close();
    } finally {
      shop.setEmbed(await embedFor(shop));
    }
  });
});

describe("Horizon's card heart app block", () => {
  it("the block's heart is the card's only heart (the embed adds none), carries the product from Liquid and keeps its card's badge free", async () => {
    const shop = shops.horizon!;
    shop.setCardBlock(cardHeartRenderer({ appUrl: api.server.url, publicKey: key, anonKey: api.anonKey, assetBase: shop.cdnOrigin, shopUrl: shop.origin(HOST) }));
    try {
      const { context, page, console } = await open("horizon", FIXTURE_PATHS.collection);
      await expect.poll(() => page.locator(".wish-heart[aria-pressed]").count()).toBe(PRODUCTS.length);
      await expectOneHeartPerCard(page, "horizon", handles(PRODUCTS));
      expect(await page.locator(".wish-heart[data-wish-cards]").count()).toBe(0);
      const first = page.locator("product-card .wish-card-heart").first();
      const p = PRODUCTS[0]!;
      expect(await first.getAttribute("data-title")).toBe(p.title);
      expect(await first.getAttribute("data-price")).toBe(String(p.price));
      expect(await first.getAttribute("data-metadata")).toBe(JSON.stringify({ variant_id: p.variantId, quantity: 1 }));
      await page.screenshot({ path: path.join(screenshots, `hearts-horizon-card-block-1280.png`) });
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(console.errors).toEqual([]);
      await context.close();
    } finally {
      shop.setCardBlock(null);
    }
  });
});
