// The admin preview (docs/shopify.md "Preview the admin locally") on the
// built server: a local installation (APP_URL on a *.localhost name) opens
// every admin page for the demo shop in Chromium, with its seeded data, the
// preview banner (English and German), no horizontal overflow and no serious
// axe violation at 375 and 1280 px (screenshots in screenshots/admin/, also
// `npm run screenshots:admin`). The Shopify app is on, with the fake Admin API
// recording every call: the preview's billing and badge never reach it. The
// preview cannot address an installed shop's records, and on a server whose
// APP_URL is not local (same database, same secrets) /app/preview is 404 and
// a preview cookie is worth nothing; ADMIN_PREVIEW=true there stops the boot.
import { mkdirSync } from "node:fs";
import { request as httpRequest } from "node:http";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, seriousA11yViolations, watchConsole } from "../support/browser.ts";
import { freePort, root, startServer, type TestServer } from "../support/server.ts";
import { RequestType, setUpValidRequest } from "@shopify/shopify-api/test-helpers";
import { adminRequest, API_KEY, API_SECRET, FakeAdminApi, fakeAdminForServer } from "../support/shopify.ts";
import { sql } from "../support/sql.ts";
import { ADMIN_PAGES } from "~/admin/nav-menu";
import { ADMIN_TEXTS } from "~/i18n/admin";
import { PREVIEW_SHOP_DOMAIN } from "~/domains/demo/preview-shop.server";
import { parseEnv } from "~/env.server";

const api = new FakeAdminApi();
let fake: Awaited<ReturnType<typeof fakeAdminForServer>>;
let server: TestServer;
let browser: Browser;
/** The local installation's address: Chromium resolves *.localhost to the loopback address. */
let appUrl: string;
/** The same server at 127.0.0.1, for requests from the test itself. */
let directUrl: string;
const shots = path.join(root, "screenshots/admin");

beforeAll(async () => {
  fake = await fakeAdminForServer(api);
  const port = String(await freePort());
  appUrl = `http://preview.localhost:${port}`;
  directUrl = `http://127.0.0.1:${port}`;
  server = await startServer({ ...fake.env, APP_URL: appUrl, PORT: port, SHOPIFY_API_KEY: API_KEY, SHOPIFY_API_SECRET: API_SECRET });
  browser = await launchBrowser();
  mkdirSync(shots, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await fake?.stop();
});

/** What each page shows of the demo shop's seeded data; a new admin page fails here until it is added. */
const SHOWS: Record<string, { heading: string; data: string }> = {
  "/app": { heading: "Demo shop", data: "Plan: Free" },
  "/app/revenue": { heading: "Wishlist revenue", data: "Wool scarf" },
  "/app/usage": { heading: "Usage", data: "Saves" },
  "/app/keys": { heading: "Keys and tokens", data: "pk_live_" },
  "/app/baskets": { heading: "Wishlist drawer", data: "bkt_" },
  "/app/alerts": { heading: "Alerts", data: "Stoneware mug" },
  "/app/plans": { heading: "Plans", data: "Your plan: Free" },
};
const pages = ["/app", ...ADMIN_PAGES.map((p) => p.to)];
const slug = (to: string) => (to === "/app" ? "home" : to.replace("/app/", ""));

async function startPreview(page: Page) {
  const res = await page.goto(`${appUrl}/app/preview`);
  expect(res?.status()).toBe(200);
  expect(new URL(page.url()).pathname).toBe("/app");
}

/** The preview's cookie, as the test's own requests send it. */
async function previewCookie(): Promise<string> {
  const res = await fetch(`${directUrl}/app/preview`, { redirect: "manual" });
  expect(res.status).toBe(302);
  return /wish_admin_preview=[^;]+/.exec(res.headers.get("set-cookie") ?? "")![0];
}

describe("the admin preview on a local installation", () => {
  it("opens every admin page with the demo shop's data and the banner, fits 375 and 1280 px, axe-clean (screenshots)", async () => {
    expect(Object.keys(SHOWS).sort()).toEqual([...pages].sort());
    const problems: string[] = [];
    for (const width of [375, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, locale: "en-US" });
      const console = watchConsole(context);
      const page = await context.newPage();
      await startPreview(page);
      for (const to of pages) {
        const res = await page.goto(`${appUrl}${to}`);
        expect(res?.status(), to).toBe(200);
        await page.getByRole("heading", { level: 1, name: SHOWS[to]!.heading }).waitFor();
        await page.getByText("Preview — not connected to a Shopify store").waitFor();
        await page.getByText(SHOWS[to]!.data).first().waitFor();
        // The page's own link is marked as the current one.
        expect(await page.getByRole("navigation", { name: "Admin pages" }).locator('[aria-current="page"]').count(), to).toBe(1);
        // Shot once the progress bar's fill has arrived (a CSS transition Polaris runs even under reduced motion).
        await page.waitForFunction(() => document.getAnimations().every((a) => a.playState === "finished"));
        // Every page is shot before anything is judged, so one failure still leaves the others to look at.
        await page.screenshot({ path: path.join(shots, `${slug(to)}-${width}.png`), fullPage: true });
        // A full-page shot leaves the sandboxed e-mail preview blank: it gets its own.
        if (to === "/app/alerts") await page.locator("iframe").screenshot({ path: path.join(shots, `alerts-email-${width}.png`) });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
        if (overflow > width) problems.push(`${to} at ${width}px: ${overflow}px wide`);
        for (const v of await seriousA11yViolations(page)) problems.push(`${to} at ${width}px: ${v.id} (${v.help})`);
      }
      await context.close();
      expect(console.errors).toEqual([]);
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it("every page in German when the admin's locale is German: German texts, none of the English catalogue's, fits 375 and 1280 px, axe-clean (screenshots)", async () => {
    // Each page's heading and a text of its own, as a German merchant reads them.
    const GERMAN: Record<string, { heading: string; text: string }> = {
      "/app": { heading: "Demo shop", text: "Tarif: Free" },
      "/app/revenue": { heading: "Wunschlisten-Umsatz", text: "Zuordnungszeitraum" },
      "/app/usage": { heading: "Nutzung", text: "API-Anfragen pro Schlüssel in diesem Monat" },
      "/app/keys": { heading: "Schlüssel und Tokens", text: "Persönliche Zugriffstokens" },
      "/app/baskets": { heading: "Wunschlisten-Leiste", text: "Warenkorb-URL" },
      "/app/alerts": { heading: "Alarme", text: "Alarme an Kundinnen und Kunden" },
      "/app/plans": { heading: "Tarife", text: "Ihr Tarif: Free" },
    };
    expect(Object.keys(GERMAN).sort()).toEqual([...pages].sort());
    // The English catalogue's texts that German words differently and no German text contains.
    const strings = (t: unknown, path = ""): Array<[string, string]> =>
      typeof t === "string" ? [[path, t]] : t && typeof t === "object" ? Object.entries(t).flatMap(([k, v]) => strings(v, `${path}.${k}`)) : [];
    const german = new Map(strings(ADMIN_TEXTS.de));
    const word = (text: string) => new RegExp(`(^|[^\\p{L}\\p{N}_])${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^\\p{L}\\p{N}_])`, "u");
    const english = strings(ADMIN_TEXTS.en)
      .filter(([path, text]) => german.get(path) !== text)
      .map(([, text]) => text)
      .filter((text) => ![...german.values()].some((de) => word(text).test(de)));
    expect(english).toEqual(expect.arrayContaining(["Plans", "Usage", "Save", "Actions this month"]));
    const problems: string[] = [];
    for (const width of [375, 1280]) {
      // An English browser: the admin's locale decides, not Accept-Language.
      const context = await browser.newContext({ viewport: { width, height: 900 }, locale: "en-US" });
      const console = watchConsole(context);
      const page = await context.newPage();
      await startPreview(page);
      for (const to of pages) {
        const res = await page.goto(`${appUrl}${to}?locale=de`);
        expect(res?.status(), to).toBe(200);
        await page.getByRole("heading", { level: 1, name: GERMAN[to]!.heading }).waitFor();
        await page.getByText("Vorschau – mit keinem Shopify-Shop verbunden").waitFor();
        await page.getByText(GERMAN[to]!.text, { exact: true }).first().waitFor();
        expect(await page.locator("html").getAttribute("lang"), to).toBe("de");
        await page.waitForFunction(() => document.getAnimations().every((a) => a.playState === "finished"));
        await page.screenshot({ path: path.join(shots, `${slug(to)}-de-${width}.png`), fullPage: true });
        const shown = await page.locator("body").innerText();
        const left = english.filter((text) => word(text).test(shown));
        if (left.length) problems.push(`${to} at ${width}px shows English: ${left.map((t) => JSON.stringify(t)).join(", ")}`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
        if (overflow > width) problems.push(`${to} at ${width}px: ${overflow}px wide`);
        for (const v of await seriousA11yViolations(page)) problems.push(`${to} at ${width}px: ${v.id} (${v.help})`);
      }
      // The page links keep the language: the next page is German too.
      await page.goto(`${appUrl}/app?locale=de`);
      await page.getByRole("navigation", { name: "Seiten der App" }).getByRole("link", { name: "Tarife" }).click();
      await page.getByRole("heading", { level: 1, name: "Tarife" }).waitFor();
      expect(new URL(page.url()).searchParams.get("locale")).toBe("de");
      await context.close();
      expect(console.errors).toEqual([]);
    }
    expect(problems).toEqual([]);
  }, 180_000);

  it("Switch to Free on a paid plan: the confirmation says what changes, and the preview answers with its note without reaching Shopify", async () => {
    const [shop] = await sql<{ id: number; partnerId: number }>(server.databaseUrl, `SELECT id, "partnerId" FROM "PlatformShop" WHERE domain = ?`, [PREVIEW_SHOP_DOMAIN]);
    await sql(server.databaseUrl, `UPDATE "PlatformShop" SET "subscriptionStatus" = 'active', plan = 'Growth', "subscriptionId" = 'gid://shopify/AppSubscription/demo' WHERE id = ?`, [shop!.id]);
    await sql(server.databaseUrl, `UPDATE "Partner" SET plan = 'growth' WHERE id = ?`, [shop!.partnerId]);
    try {
      const before = api.calls.length;
      for (const [lang, width] of [["en", 1280], ["de", 375]] as const) {
        const t = ADMIN_TEXTS[lang].plans;
        const context = await browser.newContext({ viewport: { width, height: 900 }, locale: lang === "de" ? "de-DE" : "en-US" });
        const page = await context.newPage();
        await startPreview(page);
        await page.goto(`${appUrl}/app/plans?locale=${lang}`);
        await page.getByText(t.yourPlan("Growth") + t.subscribed).waitFor();
        await page.getByRole("button", { name: t.switchToFree, exact: true }).click();
        const confirmation = page.getByText(t.confirmTitle("Growth"));
        await confirmation.waitFor();
        for (const sentence of [t.confirmEnds("Growth"), t.confirmFeatures]) await page.getByText(sentence).waitFor();
        // Free's limit (SPEC 8.1) in the page's own number format, and what Free means once the trial is over (SPEC 3).
        await page.getByText(t.confirmActions("200")).waitFor();
        await page.getByText(/Free is only available during the app's trial|Free gibt es nur während des Testzeitraums/).waitFor();
        expect(await seriousA11yViolations(page)).toEqual([]);
        await page.screenshot({ path: path.join(shots, `plans-switch-${lang}-${width}.png`), fullPage: true });
        await page.getByRole("button", { name: t.confirmYes, exact: true }).click();
        await page.getByText(ADMIN_TEXTS[lang].preview.readOnly).waitFor();
        expect(await page.getByText(t.switched).count()).toBe(0);
        await context.close();
      }
      expect(api.calls.slice(before)).toEqual([]);
      expect(await sql(server.databaseUrl, `SELECT plan FROM "Partner" WHERE id = ?`, [shop!.partnerId])).toEqual([{ plan: "growth" }]);
    } finally {
      await sql(server.databaseUrl, `UPDATE "PlatformShop" SET "subscriptionStatus" = 'trialing', plan = NULL, "subscriptionId" = NULL WHERE id = ?`, [shop!.id]);
      await sql(server.databaseUrl, `UPDATE "Partner" SET plan = 'free' WHERE id = ?`, [shop!.partnerId]);
    }
  });

  it("speaks German to a German browser", async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 900 }, locale: "de-DE" });
    const page = await context.newPage();
    await startPreview(page);
    await page.getByText("Vorschau – mit keinem Shopify-Shop verbunden").waitFor();
    expect(await page.locator('[lang="de"]').getByText("Vorschau – mit keinem Shopify-Shop verbunden").count()).toBe(1);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(shots, "home-de-375.png"), fullPage: true });
    await context.close();
  });

  it("choosing a plan answers with the preview's note and reaches no Admin API", async () => {
    const before = api.calls.length;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
    const page = await context.newPage();
    await startPreview(page);
    await page.goto(`${appUrl}/app/plans`);
    await page.getByRole("button", { name: "Choose Starter", exact: true }).click();
    await page.getByText("This is the local preview: it is not connected to a Shopify store").waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(shots, "plans-choose-1280.png"), fullPage: true });
    await context.close();
    // The badge, posted directly (its button is disabled on Free): the same note, and no metafield write.
    const res = await fetch(`${directUrl}/app/plans`, {
      method: "POST",
      headers: { cookie: await previewCookie(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "badge", shown: "true" }),
    });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("This is the local preview");
    expect(api.calls.slice(before)).toEqual([]);
    expect(api.tokenExchanges).toBe(0);
  });

  it("reads and changes only the demo shop: an installed shop's keys are neither shown nor changed", async () => {
    // A real shop installs through the embedded admin (session token, token exchange with the fake Admin API).
    const shop = api.addShop("preview-neighbour.myshopify.com").domain;
    const signed = await adminRequest(shop, "/app/keys");
    const headers = new Headers(signed.headers);
    // The library turns away requests whose user agent looks like a bot's (Node's fetch does).
    headers.set("user-agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36");
    const installed = await fetch(`${directUrl}/app/keys${new URL(signed.url).search}`, { headers });
    expect(installed.status).toBe(200);
    const [key] = await sql<{ id: number; key: string }>(
      server.databaseUrl,
      `SELECT k.id, k.key FROM "ApiKey" k JOIN "PlatformShop" s ON s."partnerId" = k."partnerId" WHERE s.domain = ?`,
      [shop],
    );
    expect(key).toBeDefined();
    const cookie = await previewCookie();
    // Naming the shop changes nothing: the preview is the demo shop's.
    const view = await fetch(`${directUrl}/app/keys?shop=${shop}`, { headers: { cookie } });
    expect(view.status).toBe(200);
    const html = await view.text();
    expect(html).toContain("Preview — not connected to a Shopify store");
    expect(html).toContain("pk_live_");
    expect(html).not.toContain(key!.key);
    for (const intent of ["revoke", "delete", "rotate"]) {
      const res = await fetch(`${directUrl}/app/keys?shop=${shop}`, {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent, id: String(key!.id) }),
      });
      expect(res.status, intent).toBe(404);
    }
    expect(await sql(server.databaseUrl, `SELECT status FROM "ApiKey" WHERE id = ?`, [key!.id])).toEqual([{ status: "active" }]);
    // What stays in the app works, on the demo shop's partner.
    const created = await fetch(`${directUrl}/app/keys?shop=${shop}`, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "create-test-key" }),
    });
    expect(created.status).toBe(200);
    const testKeys = await sql<{ email: string }>(
      server.databaseUrl,
      `SELECT p.email FROM "ApiKey" k JOIN "Partner" p ON p.id = k."partnerId" WHERE k.environment = 'test'`,
    );
    expect(testKeys).toEqual([{ email: "demo-admin@example.com" }]);
  });

  it("the revenue CSV export, the admin's one download, carries the demo shop's orders", async () => {
    const res = await fetch(`${directUrl}/app/revenue/export`, { headers: { cookie: await previewCookie() } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    const rows = (await res.text()).trim().split("\n");
    expect(rows[0]).toContain("order_id");
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.slice(1).every((row) => row.includes("EUR"))).toBe(true);
  });

  it("a forged or altered cookie, or a request addressed to a foreign host name, gets no preview", async () => {
    const cookie = await previewCookie();
    const [, value] = cookie.split("=");
    const [v, expires, nonce, mac] = value!.split(".");
    for (const forged of [`${v}.${Number(expires) + 3600}.${nonce}.${mac}`, `${v}.${expires}.${nonce}.${mac!.slice(0, -2)}AA`, "v1.9999999999.x.y"]) {
      const res = await fetch(`${directUrl}/app`, { headers: { cookie: `wish_admin_preview=${forged}` }, redirect: "manual" });
      expect(await res.text()).not.toContain("Preview — not connected");
    }
    // A page of another site whose name was rebound to this machine (DNS rebinding) addresses it by that name.
    for (const target of ["/app/preview", "/app"]) {
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(`${directUrl}${target}`, { headers: { host: "evil.example", cookie } }, (res) => {
          let body = "";
          res.on("data", (c) => (body += c)).on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on("error", reject).end();
      });
      expect(answer.body).not.toContain("Preview — not connected");
      if (target === "/app/preview") expect(answer.status).toBe(404);
    }
  });
});

describe("the admin preview elsewhere", () => {
  it("a shop's admin document loads App Bridge as the first script of its head, with the API key; the preview's loads none", async () => {
    const store = api.addShop("bridge-store.myshopify.com", { primaryHost: "www.bridge.example" });
    // The embedded admin's first load, as Shopify opens it: shop, host, embedded, id_token and hmac in the query.
    const request = await setUpValidRequest(
      { type: RequestType.Admin, store: store.domain.replace(".myshopify.com", ""), apiKey: API_KEY, apiSecretKey: API_SECRET },
      new Request(`${directUrl}/app?shop=${store.domain}`),
    );
    // A browser's User-Agent: the library answers 410 to what looks like a bot.
    const res = await fetch(request.url, { headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36" } });
    const html = await res.text();
    expect(res.status).toBe(200);
    const head = html.slice(0, html.indexOf("</head>"));
    expect(/<script[^>]*>/.exec(head)?.[0]).toBe('<script src="https://cdn.shopify.com/shopifycloud/app-bridge.js">');
    expect(head).toContain(`<meta name="shopify-api-key" content="${API_KEY}"/>`);
    expect(html.match(/app-bridge\.js/g)).toHaveLength(1);

    const preview = await fetch(`${directUrl}/app`, { headers: { cookie: await previewCookie() } });
    expect(preview.status).toBe(200);
    expect(await preview.text()).not.toContain("app-bridge.js");
  });

  it("is 404 on a server whose APP_URL is not local, and a cookie minted locally is worth nothing there", async () => {
    const cookie = await previewCookie();
    const deployed = await startServer({
      ...fake.env,
      DATABASE_URL: server.databaseUrl,
      APP_URL: "https://wish.example",
      SHOPIFY_API_KEY: API_KEY,
      SHOPIFY_API_SECRET: API_SECRET,
    });
    try {
      const preview = await fetch(`${deployed.url}/app/preview`, { redirect: "manual" });
      expect(preview.status).toBe(404);
      expect(preview.headers.get("set-cookie")).toBeNull();
      for (const at of ["/app", "/app/keys"]) {
        const res = await fetch(`${deployed.url}${at}`, { headers: { cookie }, redirect: "manual" });
        expect(res.status, at).not.toBe(200);
        expect(await res.text()).not.toContain("Demo shop");
      }
    } finally {
      await deployed.stop();
    }
  }, 60_000);

  it("ADMIN_PREVIEW=true stops the boot unless APP_URL is on localhost and HOST is a loopback address", () => {
    expect(() => parseEnv({ APP_URL: "https://wish.example", ADMIN_PREVIEW: "true" })).toThrow(/ADMIN_PREVIEW/);
    expect(() => parseEnv({ APP_URL: "http://localhost:3000", HOST: "0.0.0.0", ADMIN_PREVIEW: "true" })).toThrow(/ADMIN_PREVIEW/);
    expect(() => parseEnv({ APP_URL: "http://localhost:3000", ADMIN_PREVIEW: "true" })).not.toThrow();
  });
});
