// Account basics in real Chromium against the built server, with the
// e-mails as a real SMTP server in this process receives them
// (docs/identity.md "Account basics"): a forgotten password from My lists'
// sign-in to the e-mailed link's page and a new password that ends every
// other session; a new e-mail address confirmed by its link; the display
// name on the share page and in the link preview, never a part of the
// e-mail address; "Download my data" and "Delete my account". Every page at
// 375 and 1280 px (tests/screenshots/account-*.png), German and English,
// without serious axe violations.
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api } from "../support/api.ts";
import { launchBrowser, seriousA11yViolations, watchConsole } from "../support/browser.ts";
import { root, startServer, type TestServer } from "../support/server.ts";
import { testTmpDir } from "../support/database.ts";
import { emailsSettled, startMailSink, type MailSink } from "../support/smtp.ts";
import { until } from "../support/wait.ts";

const PASSWORD = "correct horse battery";
const NEW_PASSWORD = "a brand new passphrase";
const screenshots = path.join(root, "tests/screenshots");
const WIDTHS = [375, 1280] as const;

let server: TestServer;
let api: Api;
let browser: Browser;
let smtp: MailSink;
const consoles: { errors: string[] }[] = [];
let counter = 0;
const newEmail = (who: string) => `${who}.becker-${process.pid}-${++counter}@example.com`;

beforeAll(async () => {
  smtp = await startMailSink();
  server = await startServer({ SMTP_URL: smtp.url, OUTBOX_POLL_MS: "100", OUTBOX_BACKOFF_SCALE: "0.001" });
  api = await apiFor(server);
  browser = await launchBrowser();
  mkdirSync(screenshots, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.close();
  expect(consoles.flatMap((c) => c.errors)).toEqual([]);
});

async function context(opts: Parameters<Browser["newContext"]>[0] = {}): Promise<BrowserContext> {
  const ctx = await browser.newContext(opts);
  ctx.setDefaultTimeout(10_000);
  const watched = watchConsole(ctx);
  // A refused API call (a used link) is logged by the browser as a failed resource: expected where a test provokes it.
  consoles.push({ get errors() { return watched.errors.filter((l) => !/status of (403|400|422)/.test(l)); } });
  return ctx;
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: path.join(screenshots, `account-${name}.png`), fullPage: true });
}

async function fits(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

async function openLists(page: Page, lang = "en", query = "") {
  await page.goto(`${server.url}/${lang}/lists${query}`);
  await page.locator(".ml[data-hydrated]").waitFor();
}

async function signUp(who: string, displayName?: string) {
  const email = newEmail(who);
  const res = await api.post("/auth/signup", { body: { email, password: PASSWORD, ...(displayName ? { data: { display_name: displayName } } : {}) } });
  expect(res.status).toBe(200);
  return { email, access: res.body.access_token as string, refresh: res.body.refresh_token as string };
}

/** A browser signed in on My lists through its own form. */
async function signedIn(email: string, password = PASSWORD, width = 1280, lang = "en") {
  const ctx = await context({ viewport: { width, height: 900 } });
  const page = await ctx.newPage();
  await openLists(page, lang);
  await page.locator("#sign-in-email").fill(email);
  await page.locator("#sign-in-password").fill(password);
  await page.locator("#sign-in-password").press("Enter");
  await page.locator("#account-settings").waitFor();
  return { ctx, page };
}

async function linkTo(to: string, kind: "reset" | "confirm-email", count: number): Promise<string> {
  await emailsSettled(server.databaseUrl);
  const mails = await until(`${kind} e-mail`, () => smtp.to(to).filter((m) => m.text.includes(`/account/${kind}#token=`)), (m) => m.length >= count);
  return new RegExp(`(https?://\\S+/account/${kind}#token=[A-Za-z0-9_-]+)`).exec(mails.at(-1)!.text)![1]!;
}

describe("forgotten password", () => {
  it("My lists' sign-in → Forgot your password? → the e-mailed link's page → a new password; every other session ends", async () => {
    const anna = await signUp("anna");
    // Sessions that must end: another browser signed in, and an API client's refresh token.
    const other = await signedIn(anna.email);
    let mails = 0;
    for (const width of WIDTHS) {
      const ctx = await context({ viewport: { width, height: 900 } });
      const page = await ctx.newPage();
      await openLists(page);
      await page.getByRole("link", { name: "Forgot your password?" }).first().click();
      await page.getByRole("heading", { name: "Forgot your password?" }).waitFor();
      await fits(page, width);
      await shot(page, `forgot-en-${width}`);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.getByLabel("E-mail address").fill(anna.email);
      await page.getByRole("button", { name: "Send the link" }).click();
      await page.getByText("If there is an account with this address, the link is on its way.").waitFor();
      await shot(page, `forgot-sent-en-${width}`);
      expect(await seriousA11yViolations(page)).toEqual([]);

      const link = await linkTo(anna.email, "reset", ++mails);
      expect(link.startsWith(`${server.url}/en/account/reset#token=`)).toBe(true);
      await page.goto(link);
      await page.getByRole("heading", { name: "Set a new password" }).waitFor();
      // The token leaves the address bar (and history) as soon as the page has read it.
      await expect.poll(() => page.url()).toBe(`${server.url}/en/account/reset`);
      await fits(page, width);
      await shot(page, `reset-en-${width}`);
      expect(await seriousA11yViolations(page)).toEqual([]);
      if (width === 375) {
        // A short password is refused by the API (after the browser's own check is bypassed); the link stays usable.
        await page.locator("#reset-password").evaluate((el) => el.removeAttribute("minlength"));
        await page.locator("#reset-password").fill("short");
        await page.getByRole("button", { name: "Save the password" }).click();
        await page.getByRole("alert").getByText("The password must be at least 8 characters long.").waitFor();
        await shot(page, `reset-error-en-${width}`);
        await page.locator("#reset-password").fill(`${NEW_PASSWORD} ${width}`);
        await page.getByRole("button", { name: "Save the password" }).click();
        await page.getByText("Your new password is set. Every other sign-in has ended.").waitFor();
        await shot(page, `reset-done-en-${width}`);
        expect(await seriousA11yViolations(page)).toEqual([]);
        // Signed in here with the new session.
        await page.getByRole("link", { name: "To my lists" }).click();
        await page.locator("#account-settings").waitFor();

        // The other browser's cookie and the API client's tokens stopped working.
        await openLists(other.page);
        await other.page.locator("#sign-in-email").waitFor();
        expect((await api.get("/auth/user", { token: anna.access })).status).toBe(401);
        const refreshed = await api.post("/auth/token?grant_type=refresh_token", { body: { refresh_token: anna.refresh } });
        expect(refreshed.body.error).toBe("refresh_token_not_found");
        expect((await api.post("/auth/token?grant_type=password", { body: { email: anna.email, password: PASSWORD } })).status).toBe(400);
        expect((await api.post("/auth/token?grant_type=password", { body: { email: anna.email, password: `${NEW_PASSWORD} ${width}` } })).status).toBe(200);

        // The link works once.
        const again = await ctx.newPage();
        await again.goto(link);
        await again.locator("#reset-password").fill("yet another password");
        await again.getByRole("button", { name: "Save the password" }).click();
        await again.getByRole("alert").getByText("This link has expired or was used already.").waitFor();
      }
      await ctx.close();
    }
    await other.ctx.close();
  });

  it("German: the forgot page and a link without its token", async () => {
    for (const page of ["forgot", "reset", "confirm-email"]) {
      const res = await fetch(`${server.url}/de/account/${page}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("x-robots-tag")).toBe("noindex");
      // The links' tokens are in the fragment, never in a Referer; the pages' own posts keep a real Origin.
      expect(res.headers.get("referrer-policy")).toBe("same-origin");
    }
    expect((await fetch(`${server.url}/fr/account/forgot`)).status).toBe(404);
    for (const width of WIDTHS) {
      const ctx = await context({ viewport: { width, height: 900 } });
      const page = await ctx.newPage();
      await page.goto(`${server.url}/de/account/forgot`);
      await page.getByRole("heading", { name: "Passwort vergessen?" }).waitFor();
      expect(await page.getAttribute("html", "lang")).toBe("de");
      await fits(page, width);
      await shot(page, `forgot-de-${width}`);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.goto(`${server.url}/de/account/reset`);
      await page.getByText("Dieser Link ist abgelaufen oder wurde schon benutzt.").waitFor();
      await shot(page, `reset-no-token-de-${width}`);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.goto(`${server.url}/de/account/confirm-email#token=unknown-token`);
      await page.getByRole("heading", { name: "Neue E-Mail-Adresse bestätigen" }).waitFor();
      await shot(page, `confirm-email-de-${width}`);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.getByRole("button", { name: "Adresse bestätigen" }).click();
      await page.getByRole("alert").getByText("Dieser Link ist abgelaufen oder wurde schon benutzt. Fordere einen neuen an.").waitFor();
      await shot(page, `confirm-email-used-de-${width}`);
      await ctx.close();
    }
  });
});

describe("My lists: your account", () => {
  it("a new e-mail address is confirmed by the link sent to it; the settings at 375 and 1280 px, German and English", async () => {
    const ben = await signUp("ben");
    const next = newEmail("ben-new");
    const { ctx, page } = await signedIn(ben.email);
    await page.getByLabel("New e-mail address").fill(next);
    await page.locator("#settings-email-password").fill(PASSWORD);
    await page.getByRole("button", { name: "Send the confirmation link" }).click();
    await page.getByText("Almost there: open the link we sent to the new address.").waitFor();
    const link = await linkTo(next, "confirm-email", 1);
    expect(smtp.to(ben.email)).toEqual([]);
    // The sign-in's toast is not what these pictures are about.
    await page.evaluate(() => document.querySelector<HTMLElement>(".ml-toast-close")?.click());
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.locator("#account-settings").scrollIntoViewIfNeeded();
      await shot(page, `settings-en-${width}`);
      await fits(page, width);
    }
    expect(await seriousA11yViolations(page)).toEqual([]);
    await openLists(page, "de");
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await shot(page, `settings-de-${width}`);
      await fits(page, width);
    }
    expect(await seriousA11yViolations(page)).toEqual([]);

    const confirm = await ctx.newPage();
    await confirm.setViewportSize({ width: 375, height: 800 });
    await confirm.goto(link);
    await confirm.getByRole("heading", { name: "Confirm your new e-mail address" }).waitFor();
    await shot(confirm, "confirm-email-en-375");
    expect(await seriousA11yViolations(confirm)).toEqual([]);
    await confirm.getByRole("button", { name: "Confirm the address" }).click();
    await confirm.getByText(`Done: your account now uses ${next}.`).waitFor();
    await confirm.setViewportSize({ width: 1280, height: 800 });
    await shot(confirm, "confirm-email-done-en-1280");
    expect(await seriousA11yViolations(confirm)).toEqual([]);
    expect((await api.post("/auth/token?grant_type=password", { body: { email: next, password: PASSWORD } })).status).toBe(200);
    // My lists names the new address at once, in the same sign-in.
    await openLists(page);
    await page.getByText(`Signed in as ${next}`).waitFor();
    await ctx.close();
  });

  it("changing the password needs the current one; the other browser is signed out, this one stays", async () => {
    const eva = await signUp("eva");
    const other = await signedIn(eva.email);
    const { ctx, page } = await signedIn(eva.email, PASSWORD, 375, "de");
    await page.getByLabel("Aktuelles Passwort").fill("not my password");
    await page.getByLabel("Neues Passwort").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Passwort ändern" }).click();
    await page.getByRole("alert").getByText("Das aktuelle Passwort stimmt nicht.").waitFor();
    await page.locator("#settings-current-password").scrollIntoViewIfNeeded();
    await shot(page, "change-password-error-de-375");
    await page.getByLabel("Aktuelles Passwort").fill(PASSWORD);
    await page.getByLabel("Neues Passwort").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Passwort ändern" }).click();
    await page.getByText("Dein Passwort ist geändert. Alle anderen Anmeldungen sind beendet.").waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await openLists(page, "de");
    await page.locator("#account-settings").waitFor();
    await openLists(other.page);
    await other.page.locator("#sign-in-email").waitFor();
    expect((await api.post("/auth/token?grant_type=password", { body: { email: eva.email, password: NEW_PASSWORD } })).status).toBe(200);
    await ctx.close();
    await other.ctx.close();
  });

  it("the display name is what the share page and the link preview show, never a part of the e-mail address", async () => {
    const carla = await signUp("carla");
    const list = await api.post("/hosted/me/lists", { token: carla.access, body: { name: "Birthday" } });
    const token = list.body.list.id as string;
    expect((await api.put(`/hosted/lists/${token}`, { token: carla.access, body: { share_public: true } })).status).toBe(200);
    const localPart = carla.email.split("@")[0]!;
    const preview = async () => (await fetch(`${server.url}/api/v1/og/list/${token}?lang=en`)).text();

    const { ctx, page } = await signedIn(carla.email);
    const share = await ctx.newPage();
    // Without a name: "A wishlist", in German "Eine Wunschliste"; no part of the address anywhere.
    await share.goto(`${server.url}/en/list/${token}`);
    expect(await share.locator(".share-by").textContent()).toBe("A wishlist");
    expect(await share.content()).not.toContain(localPart);
    expect(await share.content()).not.toContain("carla");
    await share.goto(`${server.url}/de/list/${token}`);
    expect(await share.locator(".share-by").textContent()).toBe("Eine Wunschliste");
    expect(await preview()).not.toContain("carla");

    await page.getByLabel("Your name").fill("  Carla M.  ");
    await page.getByRole("button", { name: "Save the name" }).click();
    await page.getByText("Your name is saved.").waitFor();
    await share.goto(`${server.url}/en/list/${token}`);
    expect(await share.locator(".share-by").textContent()).toBe("by Carla M.");
    for (const width of WIDTHS) {
      await share.setViewportSize({ width, height: 900 });
      await shot(share, `share-named-en-${width}`);
    }
    const html = await preview();
    expect(html).toContain("A wishlist by Carla M.");
    expect(html).not.toContain(localPart);
    // The Open Graph image is drawn from recorded inputs (DATA_DIR/og/<sha>.json): they name her, nothing else.
    const image = /<meta property="og:image" content="[^"]*\/og\/image\/([0-9a-f]+)\.png"/.exec(html)![1]!;
    const card = readFileSync(path.join(testTmpDir, "data", "og", `${image}.json`), "utf8");
    expect(card).toContain("by Carla M.");
    expect(card).not.toContain(localPart);
    await page.getByLabel("Your name").fill("Carla\u0007");
    await page.getByRole("button", { name: "Save the name" }).click();
    await page.getByRole("alert").getByText("The name can have at most 60 characters and no control characters.").waitFor();
    await ctx.close();
  });

  it("Download my data is the account's JSON; Delete my account needs the box ticked, then signs out and the password stops working", async () => {
    const dora = await signUp("dora", "Dora");
    await api.post("/hosted/me/lists", { token: dora.access, body: { name: "Garden" } });
    const { ctx, page } = await signedIn(dora.email, PASSWORD, 375);
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download my data" }).click();
    const file = await (await download).path();
    const data = JSON.parse((await import("node:fs")).readFileSync(file!, "utf8"));
    expect(data.account).toMatchObject({ email: dora.email, display_name: "Dora", is_guest: false });
    expect(data.lists.map((l: { name: string }) => l.name)).toContain("Garden");
    expect(data).toHaveProperty("alerts", null);
    expect(data.connected_shops).toEqual({ recognised_by: [], store_accounts: [] });
    // Someone else's cookie-less request gets nothing.
    const anonymous = await fetch(`${server.url}/en/account/data`, { redirect: "manual" });
    expect(anonymous.status).toBe(303);

    // Without the box the server refuses too (the browser's own check bypassed).
    await page.locator("#settings-delete-confirm").evaluate((el) => el.removeAttribute("required"));
    await page.getByRole("button", { name: "Delete my account for good" }).click();
    await page.getByRole("alert").getByText("Please tick the box to confirm that your account should be deleted.").waitFor();
    await shot(page, "delete-unconfirmed-en-375");
    await page.getByLabel("Yes, delete my account and all my lists for good.").check();
    await page.getByRole("button", { name: "Delete my account for good" }).click();
    await page.getByText("Your account is deleted.").waitFor();
    await page.locator("#sign-in-email").waitFor();
    await shot(page, "deleted-en-375");
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect((await api.post("/auth/token?grant_type=password", { body: { email: dora.email, password: PASSWORD } })).status).toBe(400);
    expect((await api.get("/auth/user", { token: dora.access })).status).toBe(401);
    await ctx.close();
  });
});
