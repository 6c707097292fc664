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
import { adminRequest, API_KEY, API_SECRET, FakeAdminApi, fakeAdminForServer } from "../support/shopify.ts";
import { sql } from "../support/sql.ts";
import { ADMIN_PAGES } from "~/admin/nav-menu";
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
