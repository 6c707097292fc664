// The demo shop page `/demo` (docs/getting-started.md "Try it in five
// minutes") in real Chromium against the built server: the real widget.js on
// a page of the app itself, its save button opening the hosted dialog, the
// demo partner and key provisioned once, the page at phone and desktop
// widths (screenshots in tests/screenshots/), and 404 where DEMO_PAGE is off.
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedApi } from "../support/api.ts";
import { launchBrowser, seriousA11yViolations, watchConsole } from "../support/browser.ts";
import { freePort, root, startServer, type TestServer } from "../support/server.ts";
import { sql } from "../support/sql.ts";

let server: TestServer;
let browser: Browser;
// Chromium resolves *.localhost to the loopback address by itself; unlike
// 127.0.0.1 the name can stand in a key's allow-list.
let appUrl: string;
/** The same server at 127.0.0.1, for requests from the test itself. */
let directUrl: string;
const screenshots = path.join(root, "tests/screenshots");

beforeAll(async () => {
  const port = String(await freePort());
  appUrl = `http://demo.localhost:${port}`;
  directUrl = `http://127.0.0.1:${port}`;
  server = await startServer({ DEMO_PAGE: "1", APP_URL: appUrl, PORT: port });
  browser = await launchBrowser();
  mkdirSync(screenshots, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const demoPartners = () =>
  sql<{ id: number }>(server.databaseUrl, `SELECT id FROM "Partner" WHERE email = ? ORDER BY id`, ["demo-shop@example.com"]);

describe("/demo", () => {
  it("shows a shop page whose save button opens the hosted dialog and saves the product", async () => {
    const context = await browser.newContext();
    const console = watchConsole(context);
    const page = await context.newPage();
    const res = await page.goto(`${appUrl}/demo`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()["content-security-policy"]).toContain("script-src 'self'");
    await page.getByRole("heading", { level: 1 }).waitFor();

    // (Located by attribute: its name becomes "Saved".)
    const button = page.locator("[data-wish]").first();
    // widget.js has taken the button over once it carries its state.
    await expect.poll(() => button.getAttribute("aria-pressed")).toBe("false");
    const [popup] = await Promise.all([page.waitForEvent("popup"), button.click()]);
    await popup.waitForLoadState();
    await expect.poll(() => popup.url()).toBe(`${appUrl}/dialog/save`);
    await popup.getByRole("button", { name: "Continue as guest" }).click();
    await popup.getByRole("heading", { name: "Saved to “My wishlist”" }).waitFor();
    // The shop page hears of the save and marks its button.
    await expect.poll(() => button.getAttribute("aria-pressed")).toBe("true");
    await context.close();
    expect(console.errors).toEqual([]);

    // One partner with one test key whose allow-list is the app's own host.
    const partners = await demoPartners();
    expect(partners).toHaveLength(1);
    const keys = await sql<{ key: string; allowedDomains: unknown }>(
      server.databaseUrl,
      `SELECT key, "allowedDomains" FROM "ApiKey" WHERE "partnerId" = ?`,
      [partners[0]!.id],
    );
    expect(keys).toHaveLength(1);
    expect(keys[0]!.key).toMatch(/^pk_test_/);
    const domains = typeof keys[0]!.allowedDomains === "string" ? JSON.parse(keys[0]!.allowedDomains) : keys[0]!.allowedDomains;
    expect(domains).toEqual(["demo.localhost"]);
  });

  it("provisions once however often it is asked", async () => {
    const pages = await Promise.all([1, 2, 3].map(() => fetch(`${directUrl}/demo`).then((r) => r.text())));
    const keys = pages.map((html) => /data-wish-key="([^"]+)"/.exec(html)?.[1]);
    expect(new Set(keys).size).toBe(1);
    expect(await demoPartners()).toHaveLength(1);
    // A product address is the same page.
    expect((await fetch(`${directUrl}/demo/wool-scarf`)).status).toBe(200);
  });

  it("fits 375 px and 1280 px (screenshots) with no serious axe violation", async () => {
    for (const width of [375, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const console = watchConsole(context);
      const page = await context.newPage();
      await page.goto(`${appUrl}/demo`);
      await expect.poll(() => page.locator("[data-wish]").first().getAttribute("aria-pressed")).toBe("false");
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.screenshot({ path: path.join(screenshots, `demo-${width}.png`), fullPage: true });
      expect(await seriousA11yViolations(page)).toEqual([]);
      await context.close();
      expect(console.errors).toEqual([]);
    }
  });

  it("answers 404 where DEMO_PAGE is off (the default unless APP_URL is on localhost)", async () => {
    const shared = (await sharedApi()).server;
    const res = await fetch(`${shared.url}/demo`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("data-wish");
    expect(await sql(shared.databaseUrl, `SELECT id FROM "Partner" WHERE email = ?`, ["demo-shop@example.com"])).toEqual([]);
  });
});
