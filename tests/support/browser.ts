// A real browser for storefront tests: Debian's Chromium driven by
// playwright-core (GUIDE section 4), plus a tiny "shop" web server on a
// different origin from the app. Hosts ending in `.shop.test` resolve to
// 127.0.0.1 inside the browser, so a shop page at http://a.shop.test:PORT is
// cross-origin (and cross-site) to the app at http://127.0.0.1:PORT2.
import { createServer, type Server } from "node:http";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { freePort } from "./net.ts";

/** Debian's full browser (package `chromium`): the shopper's journeys, the popup blocker, the storefront bench. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/**
 * Debian's headless shell of the same Chromium build (package `chromium-headless-shell`, the
 * headless browser Playwright itself runs by default): the same Blink, V8 and network stack
 * without the desktop browser's layer, at about a third of the CPU per page. Most storefront
 * tests run in it; what needs that layer (the popup blocker) runs in `CHROMIUM`.
 */
export const HEADLESS_SHELL = process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? "/usr/bin/chromium-headless-shell";

/** GUIDE section 6's flags, plus *.shop.test → 127.0.0.1 (the storefront bench launches with them too). */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--host-resolver-rules=MAP *.shop.test 127.0.0.1",
];

/** The headless shell unless `"chromium"` is asked for (see HEADLESS_SHELL). */
export async function launchBrowser(kind: "headless-shell" | "chromium" = "headless-shell"): Promise<Browser> {
  return chromium.launch({
    executablePath: kind === "chromium" ? CHROMIUM : HEADLESS_SHELL,
    args: CHROMIUM_ARGS,
    // Playwright turns the popup blocker off by default; the SDK's popup_blocked path needs it on.
    ignoreDefaultArgs: ["--disable-popup-blocking"],
  });
}

/** Collects console errors and uncaught page errors of every page of `context` (popups and frames included). */
export function watchConsole(context: BrowserContext): { errors: string[] } {
  const errors: string[] = [];
  const watch = (page: Page) => {
    page.on("console", (msg) => {
      if (msg.type() === "error") errors.push(`${page.url()}: ${msg.text()}`);
    });
    page.on("pageerror", (err) => errors.push(`${page.url()}: ${err.message}`));
  };
  context.pages().forEach(watch);
  context.on("page", watch);
  return { errors };
}

export interface ShopServer {
  /** Origin of the shop for `host` (e.g. "a.shop.test") → http://a.shop.test:PORT */
  origin: (host?: string) => string;
  /** Serves `html` at `path` (on every *.shop.test host). */
  page: (path: string, html: string) => void;
  /** Requests the shop received, newest last (path with query). */
  requests: string[];
  stop: () => Promise<void>;
}

/** A storefront stand-in: serves the HTML given per path; anything else 404. */
export async function startShop(): Promise<ShopServer> {
  const pages = new Map<string, string>();
  const requests: string[] = [];
  const port = await freePort();
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? "/");
    const path = new URL(req.url ?? "/", "http://x").pathname;
    // Browsers ask every site for an icon; a 404 would be logged as a console error.
    if (path === "/favicon.ico") return void res.writeHead(204).end();
    const html = pages.get(path);
    if (html === undefined) {
      res.writeHead(404, { "content-type": "text/html" }).end("<!doctype html><title>Not found</title><h1>Not found</h1>");
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    origin: (host = "shop.shop.test") => `http://${host}:${port}`,
    page: (path, html) => void pages.set(path, html),
    requests,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: number;
}

/** Runs axe-core in `page` (or a frame) and returns the violations of impact serious or critical. */
export async function seriousA11yViolations(page: Pick<Page, "evaluate">): Promise<AxeViolation[]> {
  // evaluate() runs outside the page's CSP, so the page's own policy stays as served.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    // @ts-expect-error axe is injected above
    const result = await window.axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v: { id: string; impact: string | null; help: string; nodes: unknown[] }) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.length,
    }));
  });
  return (violations as AxeViolation[]).filter((v) => v.impact === "serious" || v.impact === "critical");
}

/** Clicks a button that closes its own window (Playwright's click may end with the page before it returns). */
export async function clickAndClose(page: Page, name: string): Promise<void> {
  const closed = page.waitForEvent("close");
  await page
    .getByRole("button", { name })
    .click()
    .catch((err) => {
      if (!page.isClosed()) throw err;
    });
  await closed;
}
