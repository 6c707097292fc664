// The save dialog's alert offer (docs/alerts.md, *Consent*) end to end: a
// shop page on another origin embeds the real widget.js; a shopper with an
// account saves, accepts "Tell me when it gets cheaper or is back in stock",
// and the confirmation e-mail reaches a real SMTP server in this process.
// Later saves do not repeat the offer; a guest gets none. Screenshots of the
// dialog's states at 375 and 1280 px, axe clean.
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAlertServer, type AlertServer } from "../support/alert-server.ts";
import { seriousA11yViolations, watchConsole, type ShopServer } from "../support/browser.ts";
import { startBrowserAndShop, type BrowserAndShop } from "../support/browser-shop.ts";
import { provisioner } from "../support/provision.ts";
import { root, type TestServer } from "../support/server.ts";
import type { MailSink } from "../support/smtp.ts";
import { sql } from "../support/sql.ts";
import { until } from "../support/wait.ts";

const screenshots = path.join(root, "tests/screenshots");
const HOST = "offer.shop.test";
const hex = () => randomBytes(3).toString("hex");

let alert: AlertServer;
let browserShop: BrowserAndShop;
let mail: MailSink;
let server: TestServer;
let p: Awaited<ReturnType<typeof provisioner>>;
let browser: Browser;
let shop: ShopServer;

beforeAll(async () => {
  [alert, browserShop] = await Promise.all([startAlertServer(), startBrowserAndShop()]);
  ({ server, mail } = alert);
  ({ browser, shop } = browserShop);
  p = await provisioner(server);
  mkdirSync(screenshots, { recursive: true });
});
afterAll(async () => {
  await browserShop?.stop();
  await alert?.stop();
});

const db = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => sql<T>(server.databaseUrl, text, params);

/** A shop page with the documented snippet and four hearts, in the given locale. */
async function shopPage(locale: "en-US" | "de-DE") {
  const partner = await p.partner("starter");
  const key = (await p.key(partner.id, { domains: [HOST] })).key as string;
  const product = (slug: string) => `https://${HOST}/products/${slug}-${hex()}`;
  const pagePath = `/offer-${hex()}`;
  const hearts = ["scarf", "hat", "mug", "gloves"]
    .map((id) => `<button type="button" id="${id}" data-wish data-url="${product(id)}" data-title="${id[0]!.toUpperCase()}${id.slice(1)}" data-price="2990" data-currency="EUR">Save</button>`)
    .join("\n");
  shop.page(
    pagePath,
    `<!doctype html><html lang="${locale.slice(0, 2)}"><head><title>Shop</title>
<script src="${server.url}/sdk/v1/widget.js" data-wish-key="${key}" data-wish-locale="${locale}" async></script></head>
<body><main><h1>Winter</h1>
${hearts}
</main></body></html>`,
  );
  return shop.origin(HOST) + pagePath;
}

async function heart(page: Page, id: string): Promise<Page> {
  await page.locator(`#${id}[aria-pressed]`).waitFor();
  const [popup] = await Promise.all([page.waitForEvent("popup"), page.click(`#${id}`)]);
  await popup.waitForLoadState();
  return popup;
}

/** Keeps a dialog open after a one-click save (any interaction stops it from closing itself). */
const stayOpen = (popup: Page) => popup.mouse.click(2, 2);

async function shots(popup: Page, name: string) {
  for (const width of [375, 1280]) {
    await popup.setViewportSize({ width, height: 760 });
    expect(await popup.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await popup.screenshot({ path: path.join(screenshots, `dialog-alert-offer-${name}-${width}.png`), fullPage: true });
  }
  expect(await seriousA11yViolations(popup)).toEqual([]);
}

const confirmations = (to: string) => mail.to(to).filter((m) => m.text.includes("/alerts/confirm?"));
const outboxSettled = () =>
  until("outbox settled", async () => (await db<{ n: number }>(`SELECT COUNT(*) AS n FROM "OutboxMessage" WHERE status = 'pending' AND kind = 'email'`))[0]!.n, (n) => Number(n) === 0);

describe("the save dialog's alert offer", () => {
  it("after a save with an account: the offer starts the double opt-in (a confirmation e-mail at the real SMTP server); saves in a row say to confirm and do not offer again; nothing once alerts are on", async () => {
    const url = await shopPage("en-US");
    const context = await browser.newContext();
    const console = watchConsole(context);
    const page = await context.newPage();
    await page.goto(url);

    const first = await heart(page, "scarf");
    await first.getByRole("button", { name: "Create account" }).click();
    const email = `offer-${hex()}@shopper.test`;
    await first.getByLabel("E-mail").fill(email);
    await first.getByLabel("Password").fill("a good password");
    await first.getByRole("button", { name: "Create account" }).first().click();
    await first.getByRole("heading", { name: "Saved to “My wishlist”" }).waitFor();
    const offer = first.getByRole("button", { name: "Tell me when it gets cheaper or is back in stock" });
    await offer.waitFor();
    await stayOpen(first);
    await shots(first, "offered");

    await offer.click();
    await first.getByRole("status").filter({ hasText: "Check your inbox to confirm the alerts." }).waitFor();
    expect(await offer.count()).toBe(0);
    await shots(first, "pending");
    const [confirmation] = await until("confirmation e-mail", () => confirmations(email), (m) => m.length === 1);
    expect(confirmation!.subject).toBe("Please confirm your price and stock alerts");
    const [consent] = await db<{ email: string; lang: string; confirmedAt: unknown }>(`SELECT email, lang, "confirmedAt" FROM "AlertConsent" WHERE email = ?`, [email]);
    expect(consent).toMatchObject({ email, lang: "en", confirmedAt: null });
    await first.close();

    // Two more saves in a row, one click each: pending is said, the offer is not repeated, no second e-mail.
    for (const id of ["hat", "mug"]) {
      const next = await heart(page, id);
      await next.getByRole("heading", { name: "Saved to “My wishlist”" }).waitFor();
      await stayOpen(next);
      await next.getByText("Check your inbox to confirm the alerts.").waitFor();
      expect(await next.getByRole("button", { name: "Tell me when it gets cheaper or is back in stock" }).count()).toBe(0);
      await next.close();
    }
    await outboxSettled();
    expect(confirmations(email)).toHaveLength(1);

    // Confirmed: the next save shows neither offer nor note.
    const link = /(https?:\/\/\S+\/alerts\/confirm\?\S+)/.exec(confirmation!.text)![1]!;
    expect((await fetch(link, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "" })).status).toBe(200);
    const last = await heart(page, "gloves");
    await last.getByRole("heading", { name: "Saved to “My wishlist”" }).waitFor();
    await stayOpen(last);
    await last.getByText(`Signed in as ${email}`).waitFor();
    expect(await last.locator(".alert-offer").count()).toBe(0);
    await shots(last, "on");
    await last.close();
    expect(console.errors).toEqual([]);
    await context.close();
  });

  it("German, and a guest gets no offer (no address); the page's action refuses another origin", async () => {
    const url = await shopPage("de-DE");
    const context = await browser.newContext();
    const console = watchConsole(context);
    const page = await context.newPage();
    await page.goto(url);

    const guest = await heart(page, "scarf");
    await guest.getByRole("button", { name: "Als Gast fortfahren" }).click();
    await guest.getByRole("heading", { name: "Gespeichert in „Meine Wunschliste“" }).waitFor();
    await stayOpen(guest);
    await guest.getByText("Du bist als Gast unterwegs.", { exact: false }).waitFor();
    expect(await guest.locator(".alert-offer").count()).toBe(0);
    await shots(guest, "guest-de");

    // The guest signs up in the dialog: the lists move along and the offer appears, in German.
    await guest.getByRole("button", { name: "Anmelden und Listen behalten" }).click();
    await guest.getByRole("heading", { name: "Anmelden" }).waitFor();
    await guest.getByRole("button", { name: "Konto erstellen" }).click(); // no account yet: switch to sign-up
    await guest.getByRole("heading", { name: "Konto erstellen" }).waitFor();
    const email = `offer-de-${hex()}@shopper.test`;
    await guest.getByLabel("E-Mail").fill(email);
    await guest.getByLabel("Passwort").fill("a good password");
    await guest.getByRole("button", { name: "Konto erstellen" }).first().click();
    await guest.getByRole("heading", { name: "Schon in „Meine Wunschliste“ gemerkt" }).or(guest.getByRole("heading", { name: "Gespeichert in „Meine Wunschliste“" })).waitFor();
    const offer = guest.getByRole("button", { name: "Sag mir Bescheid, wenn es günstiger oder wieder verfügbar wird" });
    await offer.waitFor();
    await stayOpen(guest);
    await shots(guest, "offered-de");
    await offer.click();
    await guest.getByText("Schau in dein Postfach und bestätige die Alarme.").waitFor();
    const [confirmation] = await until("confirmation e-mail", () => confirmations(email), (m) => m.length === 1);
    expect(confirmation!.subject).toBe("Bitte bestätige deine Preis- und Verfügbarkeitsalarme");
    await guest.close();

    // Another site cannot post to the dialog's action with the shopper's cookie (page guard, SameSite=Lax).
    const foreign = await fetch(`${server.url}/dialog/save`, {
      method: "POST",
      headers: { origin: shop.origin(HOST), "content-type": "application/x-www-form-urlencoded" },
      body: "intent=alerts-on",
    });
    expect(foreign.status).toBe(403);
    expect(console.errors).toEqual([]);
    await context.close();
  });
});
