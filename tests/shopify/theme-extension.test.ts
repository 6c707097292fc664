// The theme app extension (extensions/wishlist): theme-check with no
// offences, the block schemas (what theme-check does not check), both blocks
// rendered with liquidjs and a sample Shopify context (every script an
// extension asset, never the app's host), the committed widget.js and
// basket-integration.js equal to a fresh build, and the rendered storefront in
// Chromium with the extension's assets served from a stand-in for Shopify's CDN
// (buttons bind, the variant follows the shopper's pick).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { gzipSync } from "node:zlib";
import path from "node:path";
import { Liquid, Tag, type TagToken, type TopLevelToken } from "liquidjs";
import { parse, type HTMLElement } from "node-html-parser";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { themeCheckRun } from "@shopify/theme-check-node";
import { sharedApi } from "../support/api.ts";
import { launchBrowser, seriousA11yViolations, startShop, watchConsole, type ShopServer } from "../support/browser.ts";
import { provisioner } from "../support/provision.ts";
import { root } from "../support/server.ts";

const EXT = path.join(root, "extensions/wishlist");
const read = (file: string) => readFileSync(path.join(EXT, file), "utf8");
const readJson = (file: string) => JSON.parse(read(file)) as Record<string, unknown>;

// ------------------------------------------------------------ theme-check

describe("theme-check", () => {
  it("reports no offence for the extension (the theme-app-extension checks, chosen from shopify.extension.toml)", async () => {
    const { offenses, theme, config } = await themeCheckRun(EXT, undefined, () => undefined);
    expect(config.context).toBe("app");
    // It really looked at the blocks, snippets and locales.
    const files = theme.map((f) => path.relative(EXT, new URL(f.uri).pathname)).sort();
    expect(files).toEqual(
      expect.arrayContaining(["blocks/app-embed.liquid", "blocks/save-button.liquid", "locales/de.json", "locales/en.default.json", "snippets/wish-icon.liquid"]),
    );
    expect(offenses.map((o) => `${o.check} ${o.uri}: ${o.message}`)).toEqual([]);
  });

  it("would catch a parser-blocking script (the check is live, not a no-op)", async () => {
    const { mkdtempSync, cpSync, writeFileSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const copy = mkdtempSync(path.join(tmpdir(), "wish-ext-"));
    try {
      cpSync(EXT, copy, { recursive: true });
      const file = path.join(copy, "snippets/wish-widget-script.liquid");
      writeFileSync(file, read("snippets/wish-widget-script.liquid").replace(/\n\s*async\n/, "\n"));
      const { offenses } = await themeCheckRun(copy, undefined, () => undefined);
      expect(offenses.map((o) => o.check)).toContain("ParserBlockingScript");
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

// ------------------------------------------------------------ schemas

function schemaOf(block: string): Record<string, any> {
  const match = /\{%-?\s*schema\s*-?%\}([\s\S]*?)\{%-?\s*endschema\s*-?%\}/.exec(read(`blocks/${block}`));
  expect(match, `${block} has a schema`).not.toBeNull();
  return JSON.parse(match![1]!);
}

// Keys Shopify accepts in an app block / app embed schema.
const SCHEMA_KEYS = new Set(["name", "target", "javascript", "stylesheet", "settings", "available_if", "enabled_on", "disabled_on", "class", "tag", "default"]);
const SETTING_KEYS = new Set(["type", "id", "label", "info", "default", "options", "placeholder", "min", "max", "step", "unit", "visible_if"]);

/** "t:a.b.c" → the value at a.b.c of `locale`. */
function lookup(locale: Record<string, unknown>, key: string): unknown {
  return key.split(".").reduce<unknown>((node, part) => (node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined), locale);
}

function translationKeys(node: unknown, out: string[] = []): string[] {
  if (typeof node === "string" && node.startsWith("t:")) out.push(node.slice(2));
  else if (Array.isArray(node)) node.forEach((n) => translationKeys(n, out));
  else if (node && typeof node === "object") Object.values(node).forEach((n) => translationKeys(n, out));
  return out;
}

function leafKeys(node: unknown, prefix = ""): string[] {
  if (!node || typeof node !== "object") return [prefix];
  return Object.entries(node).flatMap(([k, v]) => leafKeys(v, prefix ? `${prefix}.${k}` : k));
}

describe("block schemas", () => {
  const blocks = readdirSync(path.join(EXT, "blocks")).sort();

  it("the extension has its three blocks and a theme extension toml", () => {
    expect(blocks).toEqual(["app-embed.liquid", "card-heart.liquid", "save-button.liquid"]);
    const toml = read("shopify.extension.toml");
    expect(toml).toMatch(/^type = "theme"$/m);
    expect(toml).toMatch(/^name = "Wishlist"$/m);
    expect(toml).toMatch(/^handle = "wishlist"$/m);
  });

  it("targets: the embed goes into body, the save button into product sections, the card heart into sections and theme blocks that take app blocks", () => {
    const embed = schemaOf("app-embed.liquid");
    const button = schemaOf("save-button.liquid");
    const heart = schemaOf("card-heart.liquid");
    expect(heart.target).toBe("section");
    expect(heart.stylesheet).toBe("wish.css");
    expect(heart.javascript).toBeUndefined();
    expect(embed.target).toBe("body");
    expect(button.target).toBe("section");
    expect(button.enabled_on).toEqual({ templates: ["product"] });
    expect(button.javascript).toBe("wish-variant.js");
    expect(button.stylesheet).toBe("wish.css");
    // The embed's styles are inline (snippets/wish-embed-style.liquid): no render-blocking stylesheet on every page.
    expect(embed.stylesheet).toBeUndefined();
  });

  it.each(["app-embed.liquid", "card-heart.liquid", "save-button.liquid"])("%s: known keys only, unique setting ids, defaults among the options, assets exist", (block) => {
    const schema = schemaOf(block);
    expect(Object.keys(schema).filter((k) => !SCHEMA_KEYS.has(k))).toEqual([]);
    const settings = schema.settings as Array<Record<string, any>>;
    const ids = settings.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const setting of settings) {
      expect(Object.keys(setting).filter((k) => !SETTING_KEYS.has(k)), setting.id).toEqual([]);
      expect(setting.id).toMatch(/^[a-z][a-z0-9_]*$/);
      if (setting.type === "select") expect(setting.options.map((o: { value: string }) => o.value)).toContain(setting.default);
    }
    for (const asset of [schema.javascript, schema.stylesheet].filter(Boolean)) {
      expect(statSync(path.join(EXT, "assets", asset)).isFile()).toBe(true);
    }
  });

  it("every t: label exists in English and German; storefront and schema locales have the same keys in both languages", () => {
    const keys = ["app-embed.liquid", "card-heart.liquid", "save-button.liquid"].flatMap((b) => translationKeys(schemaOf(b)));
    expect(keys.length).toBeGreaterThan(20);
    for (const file of ["locales/en.default.schema.json", "locales/de.schema.json"]) {
      const locale = readJson(file);
      expect(keys.filter((k) => typeof lookup(locale, k) !== "string"), file).toEqual([]);
    }
    expect(leafKeys(readJson("locales/de.schema.json")).sort()).toEqual(leafKeys(readJson("locales/en.default.schema.json")).sort());
    expect(leafKeys(readJson("locales/de.json")).sort()).toEqual(leafKeys(readJson("locales/en.default.json")).sort());
  });

  // theme-check holds a block's schema `javascript` to 10,000 B and script tags' assets to 10,000 B compressed.
  // widget.js runs on every page of the store: the product's budget, 5 KB gzip, binds it instead.
  it("the block JavaScript stays within its budgets: widget.js 5,120 B gzip, the others under 10,000 B", () => {
    for (const asset of ["wish-variant.js", "wish-basket.js", "wish-cards.js", "widget.js", "basket-integration.js"]) {
      const size = statSync(path.join(EXT, "assets", asset)).size;
      const compressed = gzipSync(readFileSync(path.join(EXT, "assets", asset))).length;
      console.log(`theme extension asset ${asset}: ${size} B (${compressed} B gzip)`);
      if (asset === "widget.js") expect(compressed).toBeLessThanOrEqual(5120);
      else expect(size).toBeLessThan(10_000);
    }
  });
});

// ------------------------------------------------------------ rendering with liquidjs

/** `{% schema %}…{% endschema %}` renders nothing on the storefront. */
class SchemaTag extends Tag {
  constructor(token: TagToken, remain: TopLevelToken[], liquid: Liquid) {
    super(token, remain, liquid);
    while (remain.length) {
      const next = remain.shift()!;
      if ((next as TagToken).name === "endschema") return;
    }
    throw new Error("schema tag not closed");
  }
  *render(): Generator<unknown, void, unknown> {}
}

/** A Liquid engine with the few Shopify filters and tags the extension uses; `lang` picks the storefront locale file. */
function shopifyLiquid(lang: "en" | "de", assetBase: string) {
  const liquid = new Liquid({ root: [path.join(EXT, "snippets")], extname: ".liquid", strictFilters: true });
  const locale = readJson(lang === "de" ? "locales/de.json" : "locales/en.default.json");
  liquid.registerTag("schema", SchemaTag);
  // Shopify's t: the storefront string with its {{ variables }} from keyword arguments ([name, value] pairs).
  liquid.registerFilter("t", (key: string, ...args: Array<[string, unknown]>) => {
    const value = lookup(locale, key);
    if (typeof value !== "string") throw new Error(`missing translation ${key}`);
    const vars = Object.fromEntries(args);
    return value.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(vars[name] ?? ""));
  });
  // Shopify's image_url: a protocol-relative CDN address with the requested width.
  liquid.registerFilter("image_url", (image: { src: string } | null, ...args: Array<[string, unknown]>) => {
    if (!image) throw new Error("image_url on nil");
    const width = args.find(([k]) => k === "width")?.[1];
    return `//cdn.shopify.test/s/files/${image.src}?width=${width}`;
  });
  liquid.registerFilter("asset_url", (name: string) => `${assetBase}/cdn/extension-assets/${name}`);
  return liquid;
}

const TITLE = `Mug "Deluxe" <Limited> & Co's`;

interface Sample {
  lang?: "en" | "de";
  metafields?: Record<string, { value: unknown }>;
  embedSettings?: Record<string, unknown>;
  buttonSettings?: Record<string, unknown>;
  heartSettings?: Record<string, unknown>;
  /** The card heart rendered where no product card gives it a product. */
  noProduct?: boolean;
  shopUrl?: string;
  assetBase?: string;
  /** The cart's (presentment) currency; EUR by default. */
  currency?: string;
}

function sampleContext(sample: Sample, settings: Record<string, unknown>) {
  const variants = [
    { id: 40001, title: "Small", price: 1299, featured_image: null },
    { id: 40002, title: "Large", price: 1899, featured_image: { src: "mug-large.jpg" } },
  ];
  return {
    shop: {
      url: sample.shopUrl ?? "https://mug-shop.example",
      metafields: { "$app:wishlist": sample.metafields ?? {} },
    },
    request: { locale: { iso_code: sample.lang ?? "en" } },
    localization: { country: { iso_code: "DE" } },
    cart: { currency: { iso_code: sample.currency ?? "EUR" } },
    routes: { cart_add_url: "/cart/add", root_url: "/" },
    product: {
      id: 8001,
      title: TITLE,
      url: "/products/mug-deluxe",
      featured_image: { src: "mug.jpg" },
      variants,
      // The shopper arrived with ?variant=40002.
      selected_or_first_available_variant: variants[1],
    },
    block: { id: "b1", settings, shopify_attributes: "" },
  };
}

// The embed's schema defaults, with hearts and the header link off: the cards script has its own tests below.
const EMBED_DEFAULTS = { app_url: "", basket_button: false, basket_button_position: "bottom-right", hearts: false, heart_position: "auto", card_selector: ".card-wrapper, product-card, .product-card", header_link: "none", header_selector: ".header__icons, header-actions" };
const BUTTON_DEFAULTS = { label: "", style: "outline", icon: "heart", alignment: "left" };
const KEY = "pk_live_0123456789abcdef";

async function render(block: "app-embed" | "save-button" | "card-heart", sample: Sample = {}): Promise<string> {
  const liquid = shopifyLiquid(sample.lang ?? "en", sample.assetBase ?? "https://cdn.shopify.test");
  const settings =
    block === "app-embed" ? { ...EMBED_DEFAULTS, ...sample.embedSettings } : block === "card-heart" ? { position: "auto", ...sample.heartSettings } : { ...BUTTON_DEFAULTS, ...sample.buttonSettings };
  const base = sampleContext(sample, settings);
  // Inside a product card (Horizon's `content_for 'blocks', closest.product: product`), the card's product is closest.product.
  const context = block === "card-heart" ? { ...base, product: null, closest: { product: sample.noProduct ? null : base.product } } : base;
  // Shopify's objects are global: snippets see them inside {% render %} too (liquidjs: `globals`).
  const { block: _block, ...globals } = context;
  return liquid.parseAndRender(read(`blocks/${block}.liquid`), context, { globals });
}

const ANON = "anon_0123456789";
const installed = (extra: Record<string, unknown> = {}) => ({
  public_key: { value: KEY },
  app_url: { value: "https://wish.example" },
  anon_key: { value: ANON },
  ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, { value: v }])),
});

const scriptTags = (html: string) => parse(html).querySelectorAll("script");

describe("app embed (rendered)", () => {
  it("loads widget.js asynchronously with the key, locale (language + country) and environment; no basket without basket_id", async () => {
    const html = await render("app-embed", { metafields: installed() });
    const scripts = scriptTags(html);
    expect(scripts).toHaveLength(1);
    const widget = scripts[0]!;
    // The extension's own asset (Shopify's CDN); the app's address and anon key ride on the tag.
    expect(widget.getAttribute("src")).toBe("https://cdn.shopify.test/cdn/extension-assets/widget.js");
    expect(widget.hasAttribute("async")).toBe(true);
    expect(widget.getAttribute("data-wish-app-url")).toBe("https://wish.example");
    expect(widget.getAttribute("data-wish-anon-key")).toBe(ANON);
    expect(widget.getAttribute("data-wish-key")).toBe(KEY);
    expect(widget.getAttribute("data-wish-locale")).toBe("en-DE");
    expect(widget.getAttribute("data-wish-environment")).toBe("live");
    // No customer signed in (Liquid's `customer` is nil): widget.js does not ask the app proxy.
    expect(widget.getAttribute("data-wish-customer")).toBe("0");
    expect(html).not.toContain("data-wish-basket");
  });

  it("German storefront: de-DE", async () => {
    const html = await render("app-embed", { lang: "de", metafields: installed() });
    expect(scriptTags(html)[0]!.getAttribute("data-wish-locale")).toBe("de-DE");
  });

  it("with a basket: basket-integration.js and the init script, both deferred, with Shopify's cart permalink; the opener is optional and hidden until init", async () => {
    const metafields = installed({ basket_id: "bkt_abc123" });
    const html = await render("app-embed", { metafields });
    const scripts = scriptTags(html);
    expect(scripts.map((s) => s.getAttribute("src"))).toEqual([
      "https://cdn.shopify.test/cdn/extension-assets/widget.js",
      "https://cdn.shopify.test/cdn/extension-assets/basket-integration.js",
      "https://cdn.shopify.test/cdn/extension-assets/wish-basket.js",
    ]);
    expect(scripts.slice(1).every((s) => s.hasAttribute("defer") && !s.hasAttribute("async"))).toBe(true);
    expect(scripts[1]!.getAttribute("data-wish-app-url")).toBe("https://wish.example");
    expect(scripts[1]!.getAttribute("data-wish-anon-key")).toBe(ANON);
    const init = scripts[2]!;
    expect(init.getAttribute("data-wish-basket-config")).toBe("bkt_abc123");
    expect(init.getAttribute("data-wish-basket-key")).toBe(KEY);
    expect(init.getAttribute("data-wish-basket-locale")).toBe("en-DE");
    expect(init.getAttribute("data-wish-basket-cart-url")).toBe("/cart/add?id={variant_id}&quantity={quantity}");
    expect(parse(html).querySelector("[data-wish-basket]")).toBeNull();

    const withButton = parse(await render("app-embed", { lang: "de", metafields, embedSettings: { basket_button: true, basket_button_position: "bottom-left" } }));
    const opener = withButton.querySelector("button[data-wish-basket]")!;
    expect(opener.getAttribute("type")).toBe("button");
    expect(opener.hasAttribute("hidden")).toBe(true);
    expect(opener.classList.contains("wish-basket-opener--bottom-left")).toBe(true);
    expect(opener.text.trim()).toBe("Wunschliste");
  });

  it("app URL: the stored one wins, the embed setting is the fallback, a trailing slash is dropped, a non-http value loads nothing", async () => {
    const stored = await render("app-embed", { metafields: installed(), embedSettings: { app_url: "https://wish.other.example" } });
    expect(scriptTags(stored)[0]!.getAttribute("data-wish-app-url")).toBe("https://wish.example");
    const fallback = await render("app-embed", { metafields: { public_key: { value: KEY }, anon_key: { value: ANON } }, embedSettings: { app_url: " https://wish.other.example/ " } });
    expect(scriptTags(fallback)[0]!.getAttribute("data-wish-app-url")).toBe("https://wish.other.example");
    expect(scriptTags(fallback)[0]!.getAttribute("src")).toBe("https://cdn.shopify.test/cdn/extension-assets/widget.js");
    const hostile = await render("app-embed", { metafields: installed({ app_url: "javascript:alert(1)//" }) });
    expect(scriptTags(hostile)).toHaveLength(0);
    expect(hostile).toContain("no app URL");
  });

  it("without a stored public key or anon key nothing loads (a comment says why)", async () => {
    const html = await render("app-embed", { metafields: { app_url: { value: "https://wish.example" }, anon_key: { value: ANON } } });
    expect(scriptTags(html)).toHaveLength(0);
    expect(html).toContain("no public key");
    const noAnon = await render("app-embed", { metafields: { app_url: { value: "https://wish.example" }, public_key: { value: KEY } } });
    expect(scriptTags(noAnon)).toHaveLength(0);
    expect(noAnon).toContain("no anonymous key");
    expect(scriptTags(await render("save-button", { metafields: { app_url: { value: "https://wish.example" }, public_key: { value: KEY } } }))).toHaveLength(0);
  });

  it("a hostile key or basket id stays inside its attribute", async () => {
    const evil = `x"><script>alert(1)</script>`;
    const html = await render("app-embed", { metafields: installed({ public_key: evil, basket_id: evil }) });
    const scripts = scriptTags(html);
    expect(scripts).toHaveLength(3);
    expect(scripts[0]!.getAttribute("data-wish-key")).toBe(evil);
    expect(scripts[2]!.getAttribute("data-wish-basket-config")).toBe(evil);
  });
});

const CDN_ASSETS = "https://cdn.shopify.test/cdn/extension-assets/";

describe("storefront scripts come from the extension's assets only", () => {
  // Every option that adds a script: basket, drawer header link, hearts, floating opener; both languages.
  const everything = { hearts: true, header_link: "drawer", basket_button: true };

  it("rendered: every <script src> of the embed and the block is an asset_url of an existing asset, async or deferred, never on the app's host", async () => {
    const pages = [
      await render("app-embed", { metafields: installed({ basket_id: "bkt_1" }), embedSettings: everything }),
      await render("app-embed", { lang: "de", metafields: installed({ basket_id: "bkt_1" }), embedSettings: everything }),
      await render("save-button", { metafields: installed({ basket_id: "bkt_1" }) }),
    ];
    const srcs: string[] = [];
    for (const html of pages) {
      for (const script of scriptTags(html)) {
        const src = script.getAttribute("src");
        if (src === undefined) continue;
        srcs.push(src);
        expect(src.startsWith(CDN_ASSETS), `${src} is not an extension asset (asset_url)`).toBe(true);
        expect(statSync(path.join(EXT, "assets", src.slice(CDN_ASSETS.length))).isFile()).toBe(true);
        expect(src).not.toContain("wish.example");
        expect(script.hasAttribute("async") || script.hasAttribute("defer"), src).toBe(true);
      }
    }
    // The check saw every script there is.
    expect([...new Set(srcs)].sort()).toEqual([CDN_ASSETS + "basket-integration.js", CDN_ASSETS + "widget.js", CDN_ASSETS + "wish-basket.js", CDN_ASSETS + "wish-cards.js"]);
  });

  it("source: no <script src> in blocks/ or snippets/ other than `{{ '…' | asset_url }}`", () => {
    const files = ["blocks", "snippets"].flatMap((dir) => readdirSync(path.join(EXT, dir)).map((f) => `${dir}/${f}`));
    const offending = files.flatMap((file) =>
      [...read(file).matchAll(/<script\b[^>]*?\ssrc\s*=\s*"([^"]*)"/g)]
        .map((m) => m[1]!)
        .filter((src) => !/^\{\{\s*'[\w.-]+\.js'\s*\|\s*asset_url\s*\}\}$/.test(src))
        .map((src) => `${file}: ${src}`),
    );
    expect(offending).toEqual([]);
  });

  it("assets/widget.js and basket-integration.js (working tree) are a fresh build of app/sdk, the same bytes /sdk/v1 serves", async () => {
    const { buildScripts, staleExtensionAssets } = await import("../../app/sdk/build.mjs");
    const fresh = await buildScripts();
    expect(Object.keys(fresh).sort()).toEqual(["basket-integration", "widget"]);
    expect(staleExtensionAssets(fresh)).toEqual([]);
    for (const [name, code] of Object.entries(fresh)) {
      // The server substitutes the placeholders into its copy; the CDN copy keeps them and reads its tag instead.
      expect(code.toString("utf8")).toContain("__WISH_APP_URL__");
      expect(code.toString("utf8")).toContain("__WISH_ANON_KEY__");
      expect(readFileSync(path.join(root, "build/sdk", `${name}.js`)).equals(code), `build/sdk/${name}.js`).toBe(true);
    }
    // And the comparison can fail: a changed byte is reported.
    expect(staleExtensionAssets({ widget: Buffer.concat([fresh.widget!, Buffer.from(";")]) })).toEqual(["widget.js"]);
  });

  it("the copies committed to git (HEAD) are that build too: npm run build rewrites the working tree, so this is what catches a forgotten commit", async () => {
    const { buildScripts } = await import("../../app/sdk/build.mjs");
    const fresh = await buildScripts();
    const git = (...args: string[]) => execFileSync("git", args, { cwd: root, maxBuffer: 1 << 24 });
    let tracked: string[];
    try {
      tracked = git("ls-files", "--", "extensions/wishlist/assets").toString("utf8").split("\n").filter(Boolean);
    } catch {
      // Not a git checkout (an unpacked release): the working-tree comparison above is all there is.
      return;
    }
    const stale = Object.entries(fresh)
      .map(([name, code]) => [`extensions/wishlist/assets/${name}.js`, code] as const)
      .filter(([file, code]) => !tracked.includes(file) || !git("show", `HEAD:${file}`).equals(code))
      .map(([file]) => file);
    expect(stale, "run npm run build and commit these").toEqual([]);
  });
});

describe("app embed: hearts on product cards and the header link", () => {
  it("schema: hearts on by default, card and header selectors with Dawn's defaults, the header link off by default with drawer and page modes", () => {
    const settings = Object.fromEntries((schemaOf("app-embed.liquid").settings as Array<Record<string, any>>).map((s) => [s.id, s]));
    expect(settings.hearts).toMatchObject({ type: "checkbox", default: true });
    expect(settings.heart_position).toMatchObject({ type: "select", default: "auto" });
    expect(settings.heart_position.options.map((o: { value: string }) => o.value)).toEqual(["auto", "top-right", "top-left"]);
    expect(settings.card_selector).toMatchObject({ type: "text", default: ".card-wrapper, product-card, .product-card" });
    expect(settings.header_link).toMatchObject({ type: "select", default: "none" });
    expect(settings.header_link.options.map((o: { value: string }) => o.value)).toEqual(["none", "drawer", "page"]);
    expect(settings.header_selector).toMatchObject({ type: "text", default: ".header__icons, header-actions" });
  });

  it("hearts on: wish-cards.js, deferred, with the selector, position, label and locale; no header link unless chosen", async () => {
    const html = await render("app-embed", { lang: "de", metafields: installed(), embedSettings: { hearts: true, card_selector: ".tile", heart_position: "top-left" } });
    const cards = scriptTags(html).find((s) => s.getAttribute("src")!.endsWith("/wish-cards.js"))!;
    expect(cards.getAttribute("src")).toBe("https://cdn.shopify.test/cdn/extension-assets/wish-cards.js");
    expect(cards.hasAttribute("defer")).toBe(true);
    expect(cards.getAttribute("data-wish-cards-hearts")).toBe("true");
    expect(cards.getAttribute("data-wish-cards-selector")).toBe(".tile");
    expect(cards.getAttribute("data-wish-cards-position")).toBe("top-left");
    // The name template: wish-cards.js puts the card's product name where {title} stands.
    expect(cards.getAttribute("data-wish-cards-label")).toBe("{title} auf die Wunschliste");
    expect(cards.getAttribute("data-wish-cards-label-plain")).toBe("Auf die Wunschliste");
    expect(cards.getAttribute("data-wish-cards-locale")).toBe("de-DE");
    expect(parse(html).querySelector(".wish-header-link")).toBeNull();
    // Both off: no cards script at all.
    expect(scriptTags(await render("app-embed", { metafields: installed() })).map((s) => s.getAttribute("src"))).toEqual(["https://cdn.shopify.test/cdn/extension-assets/widget.js"]);
  });

  it("header link: hidden until placed, to the drawer when a basket exists, else to the wishlist page on the shop's domain", async () => {
    const drawer = parse(await render("app-embed", { metafields: installed({ basket_id: "bkt_1" }), embedSettings: { header_link: "drawer" } })).querySelector(".wish-header-link")!;
    expect(drawer.hasAttribute("hidden")).toBe(true);
    expect(drawer.hasAttribute("data-wish-basket")).toBe(true);
    expect(drawer.getAttribute("href")).toBe("/apps/wishlist");
    expect(drawer.querySelector(".wish-header-label")!.text).toBe("Wishlist");
    expect(drawer.querySelector(".wish-header-count")).not.toBeNull();
    // Without a basket the drawer mode falls back to the page; page mode never opens the drawer.
    const noBasket = parse(await render("app-embed", { metafields: installed(), embedSettings: { header_link: "drawer" } })).querySelector(".wish-header-link")!;
    expect(noBasket.hasAttribute("data-wish-basket")).toBe(false);
    const page = parse(await render("app-embed", { metafields: installed({ basket_id: "bkt_1" }), embedSettings: { header_link: "page" } })).querySelector(".wish-header-link")!;
    expect(page.hasAttribute("data-wish-basket")).toBe(false);
    expect(page.getAttribute("href")).toBe("/apps/wishlist");
    // The header link needs the cards script (it places the link and feeds the count) even with hearts off.
    expect(scriptTags(await render("app-embed", { metafields: installed(), embedSettings: { header_link: "page" } })).some((s) => s.getAttribute("data-wish-cards-hearts") === "false")).toBe(true);
  });

  it("with a basket, the drawer's add to cart uses Shopify's cart (data-wish-basket-shopify-cart)", async () => {
    const init = scriptTags(await render("app-embed", { metafields: installed({ basket_id: "bkt_1" }) })).find((s) => s.getAttribute("src")!.endsWith("/wish-basket.js"))!;
    expect(init.hasAttribute("data-wish-basket-shopify-cart")).toBe(true);
  });
});

function saveButton(html: string): HTMLElement {
  const buttons = parse(html).querySelectorAll("button");
  expect(buttons).toHaveLength(1);
  return buttons[0]!;
}

describe("card heart block (rendered)", () => {
  it("a heart button with the card's product from Liquid (closest.product), named after it, escaped; no script of its own", async () => {
    const html = await render("card-heart", { metafields: installed() });
    expect(html).not.toContain("<Limited>");
    const heart = parse(html).querySelector("button.wish-heart")!;
    expect(heart.getAttribute("class")).toBe("wish-heart wish-heart--auto wish-card-heart");
    expect(heart.getAttribute("type")).toBe("button");
    expect(heart.getAttribute("aria-label")).toBe(`Add ${TITLE} to wishlist`);
    expect(heart.getAttribute("aria-pressed")).toBe("false");
    expect(heart.hasAttribute("data-wish")).toBe(true);
    // Not one of wish-cards.js's hearts: the embed leaves a card holding it alone.
    expect(heart.hasAttribute("data-wish-cards")).toBe(false);
    expect(heart.getAttribute("data-url")).toBe("https://mug-shop.example/products/mug-deluxe");
    expect(heart.getAttribute("data-id")).toBe("8001");
    expect(heart.getAttribute("data-title")).toBe(TITLE);
    expect(heart.getAttribute("data-image-url")).toBe("https://cdn.shopify.test/s/files/mug-large.jpg?width=800");
    expect(heart.getAttribute("data-price")).toBe("1899");
    expect(heart.getAttribute("data-currency")).toBe("EUR");
    expect(JSON.parse(heart.getAttribute("data-metadata")!)).toEqual({ variant_id: 40002, quantity: 1 });
    // widget.js comes from the embed, once per page, not once per card.
    expect(scriptTags(html)).toHaveLength(0);
    const german = parse(await render("card-heart", { lang: "de", metafields: installed(), heartSettings: { position: "top-left" } })).querySelector("button")!;
    expect(german.getAttribute("aria-label")).toBe(`${TITLE} auf die Wunschliste`);
    expect(german.getAttribute("class")).toContain("wish-heart--top-left");
    // Outside a product card (no product): nothing.
    expect((await render("card-heart", { metafields: installed(), noProduct: true })).trim()).toBe("");
  });
});

describe("save button block (rendered)", () => {
  it("a real button with every data attribute of the selected variant, escaped; metadata is JSON", async () => {
    const html = await render("save-button", { metafields: installed() });
    // The title with quotes and < arrives escaped: no markup breaks out.
    // (Shopify writes &quot;, liquidjs &#34;: both are the same character entity.)
    expect(html).toMatch(/data-title="Mug &(quot|#34);Deluxe&(quot|#34); &lt;Limited&gt; &amp; Co&#39;s"/);
    expect(html).not.toContain("<Limited>");
    const button = saveButton(html);
    expect(button.getAttribute("type")).toBe("button");
    expect(button.hasAttribute("data-wish")).toBe(true);
    expect(button.getAttribute("data-url")).toBe("https://mug-shop.example/products/mug-deluxe");
    expect(button.getAttribute("data-id")).toBe("8001");
    expect(button.getAttribute("data-title")).toBe(TITLE);
    // The selected variant's own image, absolute https, 800 wide.
    expect(button.getAttribute("data-image-url")).toBe("https://cdn.shopify.test/s/files/mug-large.jpg?width=800");
    expect(button.getAttribute("data-price")).toBe("1899");
    expect(button.getAttribute("data-currency")).toBe("EUR");
    // Liquid's prices are the amount × 100 in every currency; the button carries minor units of the cart's currency.
    for (const [currency, large, small] of [["JPY", "18", "12"], ["KWD", "18990", "12990"], ["USD", "1899", "1299"]]) {
      const priced = saveButton(await render("save-button", { metafields: installed(), currency }));
      expect(priced.getAttribute("data-currency"), currency).toBe(currency);
      expect(priced.getAttribute("data-price"), currency).toBe(large);
      expect(JSON.parse(priced.getAttribute("data-wish-variants")!).map((v: { price: number }) => v.price), currency).toEqual([Number(small), Number(large)]);
    }
    expect(button.getAttribute("data-market")).toBe("en-DE");
    expect(JSON.parse(button.getAttribute("data-metadata")!)).toEqual({ variant_id: 40002, quantity: 1 });
    expect(JSON.parse(button.getAttribute("data-wish-variants")!)).toEqual([
      { id: 40001, price: 1299, image: "" },
      { id: 40002, price: 1899, image: "https://cdn.shopify.test/s/files/mug-large.jpg?width=800" },
    ]);
    // Label text from the locale, a decorative icon, the chosen style.
    expect(button.querySelector(".wish-button__label")!.text).toBe("Add to wishlist");
    expect(button.querySelector("svg")!.getAttribute("aria-hidden")).toBe("true");
    expect(button.classList.contains("wish-button--outline")).toBe(true);

    // The block loads widget.js itself too (async), so it works before the embed is on.
    const scripts = scriptTags(html);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]!.getAttribute("src")).toBe("https://cdn.shopify.test/cdn/extension-assets/widget.js");
    expect(scripts[0]!.hasAttribute("async")).toBe(true);
    expect(scripts[0]!.getAttribute("data-wish-app-url")).toBe("https://wish.example");
    expect(scripts[0]!.getAttribute("data-wish-anon-key")).toBe(ANON);
    expect(scripts[0]!.getAttribute("data-wish-key")).toBe(KEY);
    expect(scripts[0]!.getAttribute("data-wish-locale")).toBe("en-DE");
    // Without a stored key: the button, no script.
    expect(scriptTags(await render("save-button", { metafields: { app_url: { value: "https://wish.example" } } }))).toHaveLength(0);
  });

  it("settings: custom label (escaped), filled style, bookmark or no icon, alignment; German default label", async () => {
    const custom = saveButton(
      await render("save-button", { metafields: installed(), buttonSettings: { label: "Merken <3", style: "filled", icon: "none", alignment: "center" } }),
    );
    expect(custom.text.trim()).toBe("Merken <3");
    expect(custom.querySelector("svg")).toBeNull();
    expect(custom.classList.contains("wish-button--filled")).toBe(true);
    expect(custom.parentNode.classList.contains("wish-save--center")).toBe(true);

    const german = saveButton(await render("save-button", { lang: "de", metafields: installed(), buttonSettings: { icon: "bookmark", style: "link" } }));
    expect(german.querySelector(".wish-button__label")!.text).toBe("Auf die Wunschliste");
    expect(german.getAttribute("data-market")).toBe("de-DE");
    expect(german.querySelector("svg path")!.getAttribute("d")).toMatch(/^M6 3h12/);
    expect(german.classList.contains("wish-button--link")).toBe(true);
  });

  it("branding badge: shown when badge is true or not stored (linking the app), absent when false", async () => {
    for (const metafields of [installed({ badge: true }), installed()]) {
      const badge = parse(await render("save-button", { metafields })).querySelector(".wish-badge")!;
      expect(badge.tagName).toBe("A");
      expect(badge.getAttribute("href")).toBe("https://wish.example");
      expect(badge.text).toBe("Wishlist by Wish");
    }
    const german = parse(await render("save-button", { lang: "de", metafields: installed({ badge: true }) })).querySelector(".wish-badge")!;
    expect(german.text).toBe("Wunschliste von Wish");
    const hidden = await render("save-button", { metafields: installed({ badge: false }) });
    expect(hidden).not.toContain("wish-badge");
    expect(hidden).not.toContain("Wishlist by");
  });
});

// ------------------------------------------------------------ in Chromium with the real scripts

describe("rendered storefront in Chromium", () => {
  let api: Awaited<ReturnType<typeof sharedApi>>;
  let browser: Browser;
  let shop: ShopServer;
  const contexts: Array<{ context: BrowserContext; console: { errors: string[] } }> = [];
  let key: string;
  let basketId: string;

  beforeAll(async () => {
    api = await sharedApi();
    const p = await provisioner(api.server);
    [browser, shop] = await Promise.all([launchBrowser(), startShop()]);
    const partner = await p.partner();
    key = (await p.key(partner.id)).key as string;
    const baskets = await import("~/domains/baskets/baskets.server");
    basketId = (await baskets.createBasketConfig(partner.id, { layout: "drawer" })).basket.id;
  });

  afterAll(async () => {
    for (const { context, console } of contexts) {
      await context.close().catch(() => undefined);
      expect(console.errors).toEqual([]);
    }
    await browser?.close();
    await shop?.stop();
  });

  /**
   * A product page as Shopify would serve it: a stand-in product form whose variant
   * picker behaves like Dawn's (input[name=id] change, then ?variant= rewritten after
   * an asynchronous section fetch), the save button block and the app embed at the end
   * of body. Extension assets come from the repository, as Shopify's CDN would serve them.
   */
  async function productPage(metafields: Record<string, { value: unknown }>, embedSettings: Record<string, unknown> = {}) {
    const origin = shop.origin("mug.shop.test");
    const cdn = "https://cdn.shopify.test";
    const sample = { metafields: { anon_key: { value: api.anonKey }, ...metafields }, shopUrl: origin, assetBase: cdn };
    const block = await render("save-button", sample);
    const embed = await render("app-embed", { ...sample, embedSettings });
    const context = await browser.newContext();
    contexts.push({ context, console: watchConsole(context) });
    // Scripts the page asked the app's host for: none (the app answers API calls and hosted pages only).
    const appScripts: string[] = [];
    context.on("request", (req) => {
      if (req.url().startsWith(api.server.url) && req.resourceType() === "script") appScripts.push(req.url());
    });
    // Shopify's CDN (its own origin): the extension's assets as committed.
    await context.route(
      (url) => url.origin === cdn && url.pathname.startsWith("/cdn/extension-assets/"),
      (route) => {
        const name = path.basename(new URL(route.request().url()).pathname);
        route.fulfill({ contentType: name.endsWith(".css") ? "text/css" : "text/javascript", body: read(`assets/${name}`) });
      },
    );
    // The save dialog and the basket drawer: stand-ins at the app's real addresses (the scripts' side is under test).
    await context.route(
      (url) => url.origin === api.server.url && url.pathname.startsWith("/dialog/"),
      (route) => route.fulfill({ contentType: "text/html", body: "<!doctype html><html lang='en'><head><title>Dialog</title></head><body><main><h1>Dialog</h1></main></body></html>" }),
    );
    const pathname = `/products/mug-deluxe`;
    shop.page(
      pathname,
      `<!doctype html><html lang="en"><head><title>Mug</title><link rel="icon" href="data:,">
        <link rel="stylesheet" href="${cdn}/cdn/extension-assets/wish.css">
        <script src="${cdn}/cdn/extension-assets/wish-variant.js" defer></script></head>
      <body><main><h1>Mug</h1>
        <form action="/cart/add" id="product-form">
          <input type="hidden" name="id" value="40002">
          <fieldset><legend>Size</legend>
            <label><input type="radio" name="Size" value="40001"> Small</label>
            <label><input type="radio" name="Size" value="40002" checked> Large</label>
          </fieldset>
        </form>
        ${block}
      </main>
      <script>
        // Dawn-like picker: sets the hidden id input (firing change), and only after a
        // simulated section fetch rewrites ?variant= with replaceState.
        document.getElementById("product-form").addEventListener("change", function (e) {
          if (e.target.name !== "Size") return;
          var hidden = this.querySelector("input[name=id]");
          var mode = document.body.getAttribute("data-mode");
          if (mode === "input") {
            hidden.value = e.target.value;
            hidden.dispatchEvent(new Event("change", { bubbles: true }));
          } else {
            setTimeout(function () { history.replaceState({}, "", "?variant=" + e.target.value); }, 400);
          }
        });
      </script>
      ${embed}</body></html>`,
    );
    const page = await context.newPage();
    await page.goto(origin + pathname + "?variant=40002");
    return { page, context, origin, appScripts };
  }

  async function savedProduct(page: Page, context: BrowserContext) {
    const [popup] = await Promise.all([context.waitForEvent("page"), page.click("button[data-wish]")]);
    await popup.waitForURL(/\/dialog\/save#/);
    const product = JSON.parse(new URLSearchParams(new URL(popup.url()).hash.slice(1)).get("product")!);
    await popup.close();
    return product;
  }

  it("widget.js binds the block's button (aria-pressed) and opens the dialog with the product; the variant follows the picker", async () => {
    const { page, context, origin, appScripts } = await productPage({ public_key: { value: key }, app_url: { value: api.server.url } });
    await expect.poll(() => page.getAttribute("button[data-wish]", "aria-pressed")).toBe("false");
    // widget.js from the CDN took the app's address from its tag (no placeholder substituted there).
    expect(await page.evaluate(() => (window as any).WishWidget.config)).toMatchObject({ key, locale: "en-DE", apiBase: api.server.url, widgetUrl: api.server.url });
    expect(await page.evaluate(() => [...document.scripts].map((s) => s.src).filter(Boolean))).toEqual(
      expect.arrayContaining(["https://cdn.shopify.test/cdn/extension-assets/widget.js", "https://cdn.shopify.test/cdn/extension-assets/wish-variant.js"]),
    );
    expect(appScripts).toEqual([]);

    expect(await savedProduct(page, context)).toEqual({
      url: `${origin}/products/mug-deluxe`,
      title: TITLE,
      imageUrl: "https://cdn.shopify.test/s/files/mug-large.jpg?width=800",
      price: 1899,
      currency: "EUR",
      marketCode: "en-DE",
      metadata: { variant_id: 40002, quantity: 1, product_id: "8001" },
    });

    // A theme that only rewrites ?variant= later (after its section fetch).
    await page.evaluate(() => document.body.setAttribute("data-mode", "url"));
    await page.check("input[name=Size][value='40001']");
    await expect.poll(() => page.getAttribute("button[data-wish]", "data-price"), { timeout: 5000 }).toBe("1299");
    expect(JSON.parse((await page.getAttribute("button[data-wish]", "data-metadata"))!)).toEqual({ variant_id: 40001, quantity: 1 });
    const small = await savedProduct(page, context);
    // The small variant has no image of its own: the product image stays.
    expect(small).toMatchObject({ price: 1299, metadata: { variant_id: 40001, quantity: 1, product_id: "8001" } });

    // A theme that fires change on input[name=id] (and leaves the URL alone).
    await page.evaluate(() => document.body.setAttribute("data-mode", "input"));
    await page.check("input[name=Size][value='40002']");
    await expect.poll(() => page.getAttribute("button[data-wish]", "data-price")).toBe("1899");
    expect(await savedProduct(page, context)).toMatchObject({ price: 1899, metadata: { variant_id: 40002, quantity: 1, product_id: "8001" } });

    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it("with a basket: the floating opener appears once WishBasket is initialised and opens the drawer; no badge when badge = false", async () => {
    const { page, appScripts } = await productPage(
      { public_key: { value: key }, app_url: { value: api.server.url }, basket_id: { value: basketId }, badge: { value: false } },
      { basket_button: true },
    );
    const opener = page.locator("button.wish-basket-opener");
    await expect.poll(() => opener.isVisible()).toBe(true);
    await opener.click();
    await expect.poll(() => page.getAttribute("iframe", "src")).toBe(`${api.server.url}/dialog/basket?config=${basketId}&locale=en-DE`);
    expect(await page.locator(".wish-badge").count()).toBe(0);
    // basket-integration.js came from the CDN too and called the app for the basket configuration.
    expect(await page.evaluate(() => [...document.scripts].some((s) => s.src === "https://cdn.shopify.test/cdn/extension-assets/basket-integration.js"))).toBe(true);
    expect(appScripts).toEqual([]);
  });
});
