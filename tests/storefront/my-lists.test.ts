// The "My lists" page `/{lang}/lists` in real Chromium against the built
// server: the way in without a session, signing up and in on the page (with
// the sentences of its errors), a guest whose lists move into the new
// account, managing lists, items, collaborators and sharing (with and
// without JavaScript), who may do what, signing out, accessibility and the
// page at phone and desktop widths (screenshots in tests/screenshots/).
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Locator, Page, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, wish, type Api } from "../support/api.ts";
import { launchBrowser, seriousA11yViolations, watchConsole } from "../support/browser.ts";
import { root, startServer, type TestServer } from "../support/server.ts";
import { failWrites, sql } from "../support/sql.ts";
import { newDataDir, storeProductImage } from "../support/shared-list.ts";

let server: TestServer;
let api: Api;
let browser: Browser;
let dataDir: string;
const consoles: { errors: string[] }[] = [];
const screenshots = path.join(root, "tests/screenshots");

const PASSWORD = "correct horse battery";
let counter = 0;
const newEmail = (who: string) => `${who}-${process.pid}-${Date.now()}-${++counter}@example.com`;

beforeAll(async () => {
  dataDir = newDataDir();
  server = await startServer({ DATA_DIR: dataDir });
  api = await apiFor(server);
  browser = await launchBrowser();
  mkdirSync(screenshots, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  // Every page of every context this file opened: no console errors.
  expect(consoles.flatMap((c) => c.errors)).toEqual([]);
});

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  422: "Unprocessable Entity",
  500: "Internal Server Error",
};
const withoutScripts = new WeakSet<BrowserContext>();

/** A browser context whose console errors are checked at the end; `expectedStatus` allows the browser's line for deliberate 4xx answers. */
async function context(opts: Parameters<Browser["newContext"]>[0] = {}, expectedStatus: number[] = []): Promise<BrowserContext> {
  const ctx = await browser.newContext(opts);
  if (opts.javaScriptEnabled === false) withoutScripts.add(ctx);
  ctx.setDefaultTimeout(10_000);
  const watched = watchConsole(ctx);
  const expected = (line: string) =>
    expectedStatus.some((status) => line.endsWith(`Failed to load resource: the server responded with a status of ${status} (${STATUS_TEXT[status]})`));
  consoles.push({
    get errors() {
      return watched.errors.filter((line) => !expected(line));
    },
  });
  return ctx;
}

const pageUrl = (lang = "en") => `${server.url}/${lang}/lists`;

/** Opens the page and, with JavaScript, waits for hydration. */
async function open(page: Page, lang = "en", query = "") {
  const res = await page.goto(`${pageUrl(lang)}${query}`);
  if (!withoutScripts.has(page.context())) await page.locator(".ml[data-hydrated]").waitFor();
  return res!;
}

const card = (page: Page, name: string) => page.locator("article.ml-list", { has: page.getByRole("heading", { level: 3, name, exact: true }) });
const itemRow = (scope: Locator, title: string) => scope.locator("li.ml-item", { has: scope.page().getByRole("heading", { level: 4, name: title }) });
const toast = (page: Page) => page.locator(".ml-toast-text");

async function signUpOnPage(page: Page, email: string, password = PASSWORD, form = page.locator("form", { has: page.getByRole("button", { name: "Create account" }) })) {
  await form.getByLabel("E-mail address").fill(email);
  await form.getByLabel("Password").fill(password);
  await form.getByRole("button", { name: "Create account" }).click();
}

async function signInOnPage(page: Page, email: string, password = PASSWORD) {
  const form = page.locator("form", { has: page.getByRole("button", { name: "Sign in", exact: true }) });
  await form.getByLabel("E-mail address").fill(email);
  await form.getByLabel("Password").fill(password);
  await form.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** A new signed-in context for an account made through the API. */
async function signedIn(email: string, opts: Parameters<Browser["newContext"]>[0] = {}, expectedStatus: number[] = []) {
  const ctx = await context(opts, expectedStatus);
  const page = await ctx.newPage();
  await open(page);
  await signInOnPage(page, email);
  await page.getByText(`Signed in as ${email}`).waitFor();
  return { ctx, page };
}

/** The page's sign-in session as an API access token (`POST /session/token`, what the site's own scripts use). */
async function accessTokenOf(page: Page): Promise<string> {
  const body = await page.evaluate(async () => (await fetch("/session/token", { method: "POST" })).json());
  expect(body.session?.access_token).toEqual(expect.any(String));
  return body.session.access_token;
}

async function emailUser(who: string) {
  const email = newEmail(who);
  const res = await api.post("/auth/signup", { body: { email, password: PASSWORD } });
  expect(res.status).toBe(200);
  return { email, userId: res.body.user.id as string, accessToken: res.body.access_token as string };
}

let saved = 0;
async function save(accessToken: string, wishlistId: number, p: { title: string; price?: number; currency?: string; priority?: number; imageUrl?: string; marketCode?: string }) {
  const res = await api.post("/hosted/save", {
    token: accessToken,
    body: {
      wishlistId,
      product: {
        url: `https://www.shop.example.com/products/${Date.now()}-${++saved}`,
        title: p.title,
        price: p.price,
        currency: p.currency,
        priority: p.priority,
        imageUrl: p.imageUrl,
        marketCode: p.marketCode ?? "de-DE",
      },
    },
  });
  expect(res.status).toBe(200);
  return res.body.item_id as number;
}

async function listsOf(accessToken: string): Promise<Array<{ id: string; db_id: number; name: string; share_public: boolean; role: string }>> {
  const res = await api.post("/hosted/lists", { token: accessToken });
  expect(res.status).toBe(200);
  return res.body.lists;
}

async function itemsOf(accessToken: string, token: string): Promise<Array<{ item_id: number; title: string; priority: number | null; purchased: boolean }>> {
  const res = await api.get(`/hosted/lists/${token}/items`, { token: accessToken });
  expect(res.status).toBe(200);
  return res.body.products;
}

describe("without a session", () => {
  it("shows only the way in, in English and German; other languages are the 404 page", async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    const res = await open(page, "en");
    expect(res.status()).toBe(200);
    expect(res.headers()["cache-control"]).toBe("private, no-store");
    expect(res.headers()["referrer-policy"]).toBe("same-origin");
    expect(await page.getAttribute("html", "lang")).toBe("en");
    await expect.poll(() => page.locator("h1").textContent()).toBe("My lists");
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await page.getByRole("heading", { name: "Create an account" }).waitFor();
    expect(await page.getByRole("heading", { name: "New list" }).count()).toBe(0);
    expect(await page.locator("article.ml-list").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Sign out" }).count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await open(page, "de");
    expect(await page.getAttribute("html", "lang")).toBe("de");
    await expect.poll(() => page.locator("h1").textContent()).toBe("Meine Listen");
    await page.getByRole("heading", { name: "Konto erstellen" }).waitFor();
    await page.getByLabel("E-Mail-Adresse").first().waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await ctx.close();

    for (const bad of ["/fr/lists", "/xx/lists"]) {
      const notFound = await fetch(`${server.url}${bad}`);
      expect(notFound.status).toBe(404);
      expect(await notFound.text()).toContain("Page not found");
    }
  });
});

// One shopper who signs up on the page and is used by the later tests.
const anna = { email: newEmail("anna"), password: PASSWORD };

describe("signing up and in on the page", () => {
  it("errors are sentences in an alert and the fields keep their values (not the password); then the lists", async () => {
    const ctx = await context({}, [400, 422]);
    const page = await ctx.newPage();
    await open(page);
    await signUpOnPage(page, anna.email, "short");
    const alert = page.getByRole("alert");
    await expect.poll(() => alert.textContent()).toBe("The password must be at least 8 characters long.");
    const signUp = page.locator("form", { has: page.getByRole("button", { name: "Create account" }) });
    expect(await signUp.getByLabel("E-mail address").inputValue()).toBe(anna.email);
    expect(await signUp.getByLabel("Password").inputValue()).toBe("");
    expect(await signUp.getByLabel("E-mail address").getAttribute("aria-invalid")).toBe("true");

    await signUpOnPage(page, anna.email);
    await page.waitForURL(`${pageUrl()}?done=signed-up`);
    await page.getByText(`Signed in as ${anna.email}`).waitFor();
    await expect.poll(() => toast(page).textContent()).toBe("Your account is ready. Your lists are kept in it.");
    await page.getByText("You don't have any lists yet.").waitFor();
    await page.getByRole("heading", { name: "New list" }).waitFor();
    const cookie = (await ctx.cookies()).find((c) => c.name === "wish_user")!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
    await ctx.close();

    // The same address again, and a wrong password: sentences, the address kept.
    const other = await context({}, [400, 422]);
    const second = await other.newPage();
    await open(second);
    await signUpOnPage(second, anna.email);
    await expect.poll(() => second.getByRole("alert").textContent()).toBe("There is already an account with this e-mail address. Sign in instead.");
    await signInOnPage(second, anna.email, "not the password");
    await expect.poll(() => second.getByRole("alert").textContent()).toBe("The e-mail address or password is wrong.");
    const signIn = second.locator("form", { has: second.getByRole("button", { name: "Sign in", exact: true }) });
    expect(await signIn.getByLabel("E-mail address").inputValue()).toBe(anna.email);
    expect(await signIn.getByLabel("Password").inputValue()).toBe("");
    await signInOnPage(second, anna.email);
    await second.getByText(`Signed in as ${anna.email}`).waitFor();
    await expect.poll(() => toast(second).textContent()).toBe("You are signed in.");
    await other.close();
  });
});

describe("a guest", () => {
  it("sees the saved items, is told how to keep them, and keeps every item after creating an account on the page", async () => {
    const guest = await api.anonymousUser();
    const init = await api.post("/hosted/me/init", { token: guest.accessToken, body: {}, headers: {} });
    expect(init.status).toBe(200);
    const wishlistId: number = init.body.list.db_id;
    await save(guest.accessToken, wishlistId, { title: "Teekanne", price: 2490, currency: "EUR", priority: 1 });
    await save(guest.accessToken, wishlistId, { title: "Wanderschuhe", price: 12900, currency: "EUR", imageUrl: storeProductImage(server, dataDir, "#2a7a4b") });
    const secondList = await api.post("/hosted/me/lists", { token: guest.accessToken, body: { name: "Garten" } });
    await save(guest.accessToken, secondList.body.list.db_id, { title: "Gießkanne", price: 1999, currency: "EUR" });

    const ctx = await context();
    const page = await ctx.newPage();
    await open(page);
    // Signed in as the save dialog signs a guest in: the site cookie from the guest's access token.
    const status = await page.evaluate(async (accessToken) => {
      const res = await fetch("/session/cookie", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ access_token: accessToken }) });
      return res.status;
    }, guest.accessToken);
    expect(status).toBe(200);
    await open(page);
    await page.getByText("You are using Wishlist as a guest.").waitFor();
    await page.getByRole("heading", { name: "Keep your lists on every device" }).waitFor();
    await page.getByText("Right now your lists are only kept in this browser.").waitFor();
    for (const title of ["Teekanne", "Wanderschuhe", "Gießkanne"]) await page.getByRole("heading", { level: 4, name: title }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 375, height: 900 });
    await page.screenshot({ path: path.join(screenshots, "my-lists-guest-375.png"), fullPage: true });

    const email = newEmail("guest");
    await signUpOnPage(page, email, PASSWORD, page.locator(".ml-guest form").first());
    await page.getByText(`Signed in as ${email}`).waitFor();
    await expect.poll(() => toast(page).textContent()).toBe("Your account is ready. Your lists are kept in it.");
    expect(await page.getByRole("heading", { name: "Keep your lists on every device" }).count()).toBe(0);
    for (const title of ["Teekanne", "Wanderschuhe", "Gießkanne"]) await page.getByRole("heading", { level: 4, name: title }).waitFor();

    // The lists belong to the account now, and the guest's sign-in has ended.
    const [account] = await sql<{ id: string }>(server.databaseUrl, `SELECT id FROM "User" WHERE email = ?`, [email]);
    const owners = await sql<{ ownerId: string }>(server.databaseUrl, `SELECT "ownerId" FROM "Wishlist" WHERE id IN (?, ?)`, [wishlistId, secondList.body.list.db_id]);
    expect(owners.map((o) => o.ownerId)).toEqual([account!.id, account!.id]);
    expect((await api.get("/auth/user", { token: guest.accessToken })).status).toBe(401);
    await ctx.close();
  });
});

/** Removes the write failures failWrites injected on `table`. */
async function healWrites(table: string) {
  const sqlite = server.databaseUrl.startsWith("file:");
  const names = sqlite
    ? await sql<{ name: string }>(server.databaseUrl, `SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ? AND name LIKE 'fail_%'`, [table])
    : await sql<{ name: string }>(server.databaseUrl, `SELECT trigger_name AS name FROM information_schema.triggers WHERE event_object_table = ? AND trigger_name LIKE 'fail_%'`, [table]);
  for (const { name } of names) await sql(server.databaseUrl, sqlite ? `DROP TRIGGER ${name}` : `DROP TRIGGER ${name} ON "${table}"`);
}

describe("prices", () => {
  it("show in each currency's own minor unit: JPY 1500 is ¥1,500, KWD 12345 is KWD 12.345 (and 12,345 KWD in German)", async () => {
    const user = await emailUser("money");
    const init = await api.post("/hosted/me/init", { token: user.accessToken, body: {} });
    expect(init.status, init.text).toBe(200);
    await save(user.accessToken, init.body.list.db_id, { title: "Tea bowl", price: 1500, currency: "JPY" });
    await save(user.accessToken, init.body.list.db_id, { title: "Brass lamp", price: 12345, currency: "KWD" });
    const { ctx, page } = await signedIn(user.email);
    const list = card(page, init.body.list.name);
    await expect.poll(() => itemRow(list, "Tea bowl").locator(".ml-price").textContent()).toBe("Price: ¥1,500");
    await expect.poll(() => itemRow(list, "Brass lamp").locator(".ml-price").textContent()).toBe("Price: KWD\u00a012.345");
    await open(page, "de");
    const liste = card(page, init.body.list.name);
    await expect.poll(() => itemRow(liste, "Tea bowl").locator(".ml-price").textContent()).toBe("Preis: 1.500\u00a0¥");
    await expect.poll(() => itemRow(liste, "Brass lamp").locator(".ml-price").textContent()).toBe("Preis: 12,345\u00a0KWD");
    await ctx.close();
  });
});

describe("a guest whose lists cannot move", () => {
  it("stays the guest with everything, is told so, and signing in with the account later moves the lists", async () => {
    const guest = await api.anonymousUser();
    const init = await api.post("/hosted/me/init", { token: guest.accessToken, body: {} });
    await save(guest.accessToken, init.body.list.db_id, { title: "Laterne", price: 990, currency: "EUR" });
    // The move locks the guest's user row first: make that write fail.
    await failWrites(server.databaseUrl, "User", "UPDATE", "id", guest.userId);

    const ctx = await context({}, [500]);
    const page = await ctx.newPage();
    await open(page);
    await page.evaluate(async (accessToken) => {
      await fetch("/session/cookie", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ access_token: accessToken }) });
    }, guest.accessToken);
    await open(page);
    const email = newEmail("unlucky");
    await signUpOnPage(page, email, PASSWORD, page.locator(".ml-guest form").first());
    await expect
      .poll(() => page.getByRole("alert").textContent())
      .toBe("Your lists could not be moved into the account. Nothing is lost: sign in with the account to try again.");
    await open(page);
    await page.getByText("You are using Wishlist as a guest.").waitFor();
    await page.getByRole("heading", { level: 4, name: "Laterne" }).waitFor();
    // The account exists, but the sign-in made for it ended with the failed move.
    const [account] = await sql<{ id: string }>(server.databaseUrl, `SELECT id FROM "User" WHERE email = ?`, [email]);
    const live = await sql<{ n: number }>(server.databaseUrl, `SELECT COUNT(*) AS n FROM "AuthSession" WHERE "userId" = ? AND "revokedAt" IS NULL`, [account!.id]);
    expect(Number(live[0]!.n)).toBe(0);

    await healWrites("User");
    await page.locator(".ml-guest-signin summary").click();
    const signIn = page.locator(".ml-guest-signin form");
    await signIn.getByLabel("E-mail address").fill(email);
    await signIn.getByLabel("Password").fill(PASSWORD);
    await signIn.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByText(`Signed in as ${email}`).waitFor();
    await page.getByRole("heading", { level: 4, name: "Laterne" }).waitFor();
    const [owner] = await sql<{ ownerId: string }>(server.databaseUrl, `SELECT "ownerId" FROM "Wishlist" WHERE id = ?`, [init.body.list.db_id]);
    expect(owner!.ownerId).toBe(account!.id);
    await ctx.close();
  });
});

// Anna's lists, as the later tests leave them.
let annaToken: string;
let birthday: { token: string; dbId: number };

describe("managing lists and items (JavaScript)", () => {
  let ctx: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    ({ ctx, page } = await signedIn(anna.email, {}, [400]));
    annaToken = await accessTokenOf(page);
  });
  afterAll(() => ctx?.close());

  it("creates a list, which gets the focus; items show image, price, shop, priority and date", async () => {
    const form = page.locator("form", { has: page.getByRole("button", { name: "Create list" }) });
    await form.getByLabel("Name").fill("Birthday");
    await form.getByLabel("Description (optional)").fill("Books and games");
    await page.evaluate(() => ((window as unknown as { stay: number }).stay = 1));
    await form.getByRole("button", { name: "Create list" }).click();
    await card(page, "Birthday").waitFor();
    await expect.poll(() => toast(page).textContent()).toBe("List created.");
    expect(await page.evaluate(() => (window as unknown as { stay?: number }).stay)).toBe(1); // no reload
    expect(await form.getByLabel("Name").inputValue()).toBe(""); // the form is ready for the next one
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Birthday");
    await expect.poll(() => card(page, "Birthday").locator(".ml-description").textContent()).toBe("Books and games");

    const list = (await listsOf(annaToken)).find((l) => l.name === "Birthday")!;
    birthday = { token: list.id, dbId: list.db_id };
    await save(annaToken, birthday.dbId, { title: "Board game", price: 3999, currency: "EUR", priority: 2, imageUrl: storeProductImage(server, dataDir, "#0a64c8") });
    await save(annaToken, birthday.dbId, { title: "Novel", price: 1250, currency: "USD", priority: 4 });
    await save(annaToken, birthday.dbId, { title: "Puzzle", price: 1800, currency: "EUR" });

    await form.getByLabel("Name").fill("Christmas");
    await form.getByRole("button", { name: "Create list" }).click();
    await card(page, "Christmas").waitFor();

    await open(page);
    const game = itemRow(card(page, "Birthday"), "Board game");
    await expect.poll(() => game.locator(".ml-price").textContent()).toBe("Price: €39.99");
    await expect.poll(() => game.locator(".ml-shop").textContent()).toBe("Shop: shop.example.com");
    await expect.poll(() => game.locator(".ml-priority").textContent()).toBe("Priority 2 of 4");
    const today = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }).format(new Date());
    await expect.poll(() => game.locator("time").textContent()).toBe(`Added ${today}`);
    const image = game.locator("img");
    expect(await image.getAttribute("width")).toBe("72");
    expect(await image.getAttribute("height")).toBe("72");
    expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(160);
    const link = game.getByRole("link", { name: /Board game/ });
    expect(await link.getAttribute("rel")).toBe("noopener noreferrer");
    expect(await link.getAttribute("href")).toMatch(/^https:\/\/www\.shop\.example\.com\/products\//);
    await expect.poll(() => card(page, "Birthday").locator(".ml-meta").textContent()).toContain("3 wishes");

    // German: the same list in the page's language.
    await open(page, "de");
    const spiel = itemRow(card(page, "Birthday"), "Board game");
    await expect.poll(() => spiel.locator(".ml-price").textContent()).toBe("Preis: 39,99\u00a0€");
    await expect.poll(() => spiel.locator(".ml-priority").textContent()).toBe("Priorität 2 von 4");
    await open(page, "en");
  });

  it("renames, describes and sets the occasion", async () => {
    const birthdayCard = card(page, "Birthday");
    await birthdayCard.getByText("Change name, description and occasion").click();
    const form = birthdayCard.locator("form", { has: page.getByRole("button", { name: "Save" }) });
    await form.getByLabel("Name").fill("Anna's birthday");
    await form.getByLabel("Description (optional)").fill("Books, games and puzzles");
    await form.getByLabel("Occasion").selectOption("birthday");
    await form.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => toast(page).textContent()).toBe("Changes saved.");
    const renamed = card(page, "Anna's birthday");
    await renamed.waitFor();
    await expect.poll(() => renamed.locator(".ml-meta").textContent()).toContain("Occasion: Birthday");
    await expect.poll(() => renamed.locator(".ml-description").textContent()).toBe("Books, games and puzzles");
    const list = (await listsOf(annaToken)).find((l) => l.id === birthday.token)!;
    expect(list.name).toBe("Anna's birthday");

    // An empty name is a sentence, not a crash.
    const again = renamed.locator("form", { has: page.getByRole("button", { name: "Save" }) });
    await again.getByLabel("Name").fill(" ");
    await again.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => renamed.getByRole("alert").textContent()).toBe("Please give the list a name.");
    expect((await listsOf(annaToken)).find((l) => l.id === birthday.token)!.name).toBe("Anna's birthday");
  });

  it("sets an item's priority, moves an item and removes one", async () => {
    const list = card(page, "Anna's birthday");
    const novel = itemRow(list, "Novel");
    await novel.getByLabel("Priority: Novel").selectOption("1");
    await novel.getByRole("button", { name: "Set: Novel", exact: true }).click();
    await expect.poll(() => novel.locator(".ml-priority").textContent()).toBe("Priority 1 of 4");
    await expect.poll(() => toast(page).textContent()).toBe("Priority saved.");
    expect((await itemsOf(annaToken, birthday.token)).find((i) => i.title === "Novel")!.priority).toBe(1);

    const puzzle = itemRow(list, "Puzzle");
    await puzzle.getByLabel("Move to: Puzzle").selectOption({ label: "Christmas" });
    await puzzle.getByRole("button", { name: "Move: Puzzle", exact: true }).click();
    await itemRow(card(page, "Christmas"), "Puzzle").waitFor();
    expect(await itemRow(list, "Puzzle").count()).toBe(0);
    await expect.poll(() => toast(page).textContent()).toBe("Wish moved.");
    // The button went with the item: focus is on the list it left.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(`list-${birthday.dbId}`);

    await itemRow(card(page, "Christmas"), "Puzzle").getByRole("button", { name: "Remove: Puzzle", exact: true }).click();
    await expect.poll(() => toast(page).textContent()).toBe("Wish removed.");
    await card(page, "Christmas").getByText("Nothing on this list yet.").waitFor();
    const christmas = (await listsOf(annaToken)).find((l) => l.name === "Christmas")!;
    expect(await itemsOf(annaToken, christmas.id)).toEqual([]);
  });

  it("deletes a list only after a confirmation", async () => {
    const christmas = card(page, "Christmas");
    await christmas.getByRole("link", { name: "Delete list…" }).click();
    const confirm = christmas.getByRole("group", { name: /Delete “Christmas” and its 0 wishes\? This cannot be undone\./ });
    await confirm.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("role"))).toBe("group");
    // Cancel keeps it.
    await confirm.getByRole("link", { name: "Cancel" }).click();
    await christmas.getByRole("link", { name: "Delete list…" }).waitFor();
    await christmas.getByRole("link", { name: "Delete list…" }).click();
    await confirm.getByRole("button", { name: "Yes, delete" }).click();
    await expect.poll(() => toast(page).textContent()).toBe("List deleted.");
    await expect.poll(() => card(page, "Christmas").count()).toBe(0);
    expect((await listsOf(annaToken)).map((l) => l.name)).toEqual(["Anna's birthday"]);
  });
});

describe("sharing", () => {
  it("Share makes the list public and shows the link; Copy puts it on the clipboard; Stop sharing makes it private", async () => {
    // The list's items came from a partner's shop: its shares are metered (SPEC 8).
    const partner = (await wish(server.databaseUrl, ["partner", "create", "--name", "Toy shop", "--email", "owner@toys.example", "--plan", "starter"])).partner;
    await sql(server.databaseUrl, `UPDATE "ListItem" SET "sourcePartnerId" = ? WHERE "wishlistId" = ?`, [partner.partner_id, birthday.dbId]);
    const shares = async () =>
      Number(
        (await sql<{ shares: number }>(server.databaseUrl, `SELECT shares FROM "UsageCounter" WHERE "partnerId" = ? AND period = ?`, [
          partner.partner_id,
          new Date().toISOString().slice(0, 7),
        ]))[0]?.shares ?? 0,
      );

    const { ctx, page } = await signedIn(anna.email);
    await ctx.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    const list = card(page, "Anna's birthday");
    await list.getByRole("button", { name: "Share list" }).click();
    await expect.poll(() => toast(page).textContent()).toBe("The list is shared. Anyone with the link can open it.");
    const shareUrl = `${server.url}/en/list/${birthday.token}`;
    const linkField = list.getByLabel("Share link");
    await expect.poll(() => linkField.inputValue()).toBe(shareUrl);
    expect((await listsOf(annaToken)).find((l) => l.id === birthday.token)!.share_public).toBe(true);
    await expect.poll(() => list.locator(".ml-tag").textContent()).toBe("Shared publicly");

    await list.getByRole("button", { name: "Copy link" }).click();
    await expect.poll(() => list.getByRole("status").textContent()).toBe("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shareUrl);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Anyone with the link: a fresh browser without a session.
    const visitor = await context();
    const visit = await visitor.newPage();
    const res = await visit.goto(shareUrl);
    expect(res!.status()).toBe(200);
    await expect.poll(() => visit.locator("h1").textContent()).toBe("Anna's birthday");
    await visitor.close();

    await list.getByRole("button", { name: "Stop sharing" }).click();
    await expect.poll(() => toast(page).textContent()).toBe("The list is private again. The link no longer works.");
    await list.getByRole("button", { name: "Share list" }).waitFor();
    expect((await fetch(shareUrl)).status).toBe(404);
    expect(await shares()).toBe(1);

    // Shared again the same day: still one share, as through the API (once per list and day).
    await list.getByRole("button", { name: "Share list" }).click();
    await list.getByRole("button", { name: "Stop sharing" }).waitFor();
    expect(await shares()).toBe(1);
    await list.getByRole("button", { name: "Stop sharing" }).click();
    await list.getByRole("button", { name: "Share list" }).waitFor();
    await ctx.close();
  });
});

describe("collaborators and roles", () => {
  const BEN_NAME = "Ben B.";
  let ben: Awaited<ReturnType<typeof emailUser>>;
  let novelId: number;

  it("the owner invites a friend, who then edits the list and sees purchased marks; the owner's spoiler protection hides them", async () => {
    ben = await emailUser("ben");
    // Others see the name the shopper chose, never a part of the e-mail address.
    expect((await api.put("/auth/user", { token: ben.accessToken, body: { data: { display_name: BEN_NAME } } })).status).toBe(200);
    const code = (await api.post("/friends/invites", { token: annaToken })).body.code;
    expect((await api.post(`/friends/invites/${code}/accept`, { token: ben.accessToken })).status).toBe(200);

    const { ctx, page } = await signedIn(anna.email);
    const list = card(page, "Anna's birthday");
    await list.getByText("Nobody else edits this list yet.").waitFor();
    const benName = BEN_NAME;
    await list.getByLabel("Someone from your friends").selectOption({ label: benName });
    await list.getByRole("button", { name: "Invite" }).click();
    await expect.poll(() => toast(page).textContent()).toBe("Invited. They can now edit the list.");
    await list.locator(".ml-people").getByText(benName, { exact: true }).waitFor();
    await list.getByText("All your friends can already edit this list.").waitFor();

    novelId = (await itemsOf(annaToken, birthday.token)).find((i) => i.title === "Novel")!.item_id;
    const mark = await api.put(`/hosted/lists/${birthday.token}/items/${novelId}/purchased`, { token: ben.accessToken, body: { purchased: true } });
    expect(mark.status).toBe(200);

    // Ben: the list is under "Shared with you", with the mark, without owner controls.
    const benSide = await signedIn(ben.email);
    const shared = benSide.page.locator("section", { has: benSide.page.getByRole("heading", { name: "Shared with you" }) });
    const benList = card(benSide.page, "Anna's birthday");
    await shared.locator("article.ml-list").first().waitFor();
    await expect.poll(() => itemRow(benList, "Novel").locator(".ml-badge").textContent()).toBe("Purchased");
    await benList.getByText(/Only .* can rename, share or delete it\./).waitFor();
    expect(await benList.getByRole("link", { name: "Delete list…" }).count()).toBe(0);
    expect(await benList.getByRole("button", { name: "Share list" }).count()).toBe(0);
    expect(await benList.getByRole("button", { name: /^Move/ }).count()).toBe(0);
    // An editor changes items.
    await itemRow(benList, "Board game").getByLabel("Priority: Board game").selectOption("3");
    await itemRow(benList, "Board game").getByRole("button", { name: "Set: Board game", exact: true }).click();
    await expect.poll(() => itemRow(benList, "Board game").locator(".ml-priority").textContent()).toBe("Priority 3 of 4");
    expect(await seriousA11yViolations(benSide.page)).toEqual([]);
    await benSide.ctx.close();

    // Anna: spoiler protection is on by default, so her own list shows no mark, not even in the page data.
    await open(page);
    expect(await itemRow(card(page, "Anna's birthday"), "Novel").locator(".ml-badge").count()).toBe(0);
    expect(await page.content()).not.toContain("is-purchased");
    await page.getByRole("note").getByText("Spoiler protection is on").waitFor();
    await page.getByRole("link", { name: "Show what was bought" }).click();
    await page.waitForURL(`${pageUrl()}?reveal=1`);
    await expect.poll(() => itemRow(card(page, "Anna's birthday"), "Novel").locator(".ml-badge").textContent()).toBe("Purchased");
    await ctx.close();
  });

  it("an editor cannot delete or share the list: a sentence, no 500", async () => {
    const { ctx } = await signedIn(ben.email, {}, [403]);
    const post = (form: Record<string, string>) => ctx.request.post(pageUrl(), { form, maxRedirects: 0 });
    const del = await post({ intent: "delete-list", list: birthday.token, confirm: "yes", at: String(birthday.dbId) });
    expect(del.status()).toBe(403);
    expect(await del.text()).toContain("Only the owner of this list can do that.");
    const share = await post({ intent: "share", list: birthday.token });
    expect(share.status()).toBe(403);
    expect(await share.text()).toContain("Only the owner of this list can do that.");
    const moveOut = await post({ intent: "move-item", list: birthday.token, item: String(novelId), target: birthday.token });
    expect(moveOut.status()).toBe(403);
    expect(await moveOut.text()).toContain("Only the owner of this list can move its wishes.");
    expect((await listsOf(annaToken)).find((l) => l.id === birthday.token)).toMatchObject({ share_public: false });

    // The same refusal through a real form post in the browser, without scripts: the page with the sentence.
    const noJs = await context({ javaScriptEnabled: false, storageState: await ctx.storageState() }, [403]);
    const plain = await noJs.newPage();
    await plain.goto(pageUrl());
    await plain.evaluate(
      ([token, at]) => {
        const form = document.createElement("form");
        form.method = "post";
        form.action = "/en/lists";
        for (const [name, value] of Object.entries({ intent: "delete-list", list: token, confirm: "yes", at })) {
          const input = document.createElement("input");
          input.type = "hidden";
          input.name = name;
          input.value = value;
          form.append(input);
        }
        document.body.append(form);
        form.submit();
      },
      [birthday.token, String(birthday.dbId)],
    );
    await plain.waitForLoadState();
    await expect.poll(() => plain.getByRole("alert").locator("p").textContent()).toBe("Only the owner of this list can do that.");
    await plain.getByRole("link", { name: "Go to the list “Anna's birthday”" }).waitFor();
    await noJs.close();
    await ctx.close();
  });

  it("another user's list token in a crafted form post is refused", async () => {
    const carl = await emailUser("carl");
    const { ctx } = await signedIn(carl.email, {}, [403]);
    const before = await itemsOf(annaToken, birthday.token);
    const forms: Array<Record<string, string>> = [
      { intent: "remove-item", list: birthday.token, item: String(before[0]!.item_id) },
      { intent: "share", list: birthday.token },
      { intent: "update-list", list: birthday.token, name: "Mine now" },
      { intent: "delete-list", list: birthday.token, confirm: "yes" },
      { intent: "invite", list: birthday.token, friend: carl.userId },
    ];
    for (const form of forms) {
      const res = await ctx.request.post(pageUrl(), { form, maxRedirects: 0 });
      expect(res.status(), form.intent).toBe(403);
      expect(await res.text()).toContain("Only the owner of this list can do that.");
    }
    expect(await itemsOf(annaToken, birthday.token)).toEqual(before);
    expect((await listsOf(annaToken)).find((l) => l.id === birthday.token)).toMatchObject({ name: "Anna's birthday", share_public: false });
    // Nor can a page of another origin post at all.
    const foreign = await fetch(pageUrl(), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" },
      body: new URLSearchParams({ intent: "share", list: birthday.token }),
    });
    expect(foreign.status).toBe(403);
    await ctx.close();
  });

  it("the owner removes a collaborator", async () => {
    const { ctx, page } = await signedIn(anna.email);
    const list = card(page, "Anna's birthday");
    const benName = BEN_NAME;
    await list.getByRole("button", { name: `Remove: ${benName}`, exact: true }).click();
    await expect.poll(() => toast(page).textContent()).toBe("They can no longer edit the list.");
    await list.getByText("Nobody else edits this list yet.").waitFor();
    expect((await listsOf(ben.accessToken)).map((l) => l.id)).not.toContain(birthday.token);
    await ctx.close();
  });
});

describe("without JavaScript", () => {
  it("signs in, creates a list, shares it, removes an item and deletes the list: plain posts, post/redirect/get", async () => {
    const ctx = await context({ javaScriptEnabled: false });
    const page = await ctx.newPage();
    await open(page);
    await signInOnPage(page, anna.email);
    await page.getByText(`Signed in as ${anna.email}`).waitFor();
    expect(await page.locator('input[name="enhanced"]').count()).toBe(0);

    const form = page.locator("form", { has: page.getByRole("button", { name: "Create list" }) });
    await form.getByLabel("Name").fill("Without scripts");
    const [created] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      form.getByRole("button", { name: "Create list" }).click(),
    ]);
    expect(created.status()).toBe(303);
    const list = card(page, "Without scripts");
    await list.waitFor();
    expect(page.url()).toMatch(/\/en\/lists\?done=created#list-\d+$/);
    await expect.poll(() => toast(page).textContent()).toBe("List created.");
    const made = (await listsOf(annaToken)).find((l) => l.name === "Without scripts")!;
    await save(annaToken, made.db_id, { title: "Lamp", price: 4500, currency: "EUR" });
    await save(annaToken, made.db_id, { title: "Vase", price: 2000, currency: "EUR" });

    await page.reload();
    await list.getByRole("button", { name: "Share list" }).click();
    await page.waitForURL(/done=shared/);
    expect(await list.getByLabel("Share link").inputValue()).toBe(`${server.url}/en/list/${made.id}`);
    // Copy needs scripts: without them its row takes no room at all.
    expect(await list.getByRole("button", { name: "Copy link" }).count()).toBe(0);
    expect(await list.locator(".ml-js-only").evaluate((e) => getComputedStyle(e).display)).toBe("none");
    expect((await fetch(`${server.url}/en/list/${made.id}`)).status).toBe(200);

    await itemRow(list, "Lamp").getByRole("button", { name: "Remove: Lamp", exact: true }).click();
    await page.waitForURL(/done=removed/);
    expect(await itemRow(list, "Lamp").count()).toBe(0);
    await itemRow(list, "Vase").waitFor();
    expect((await itemsOf(annaToken, made.id)).map((i) => i.title)).toEqual(["Vase"]);

    await list.getByRole("link", { name: "Delete list…" }).click();
    await page.waitForURL(new RegExp(`delete=${made.db_id}#confirm-${made.db_id}$`));
    await list.getByRole("button", { name: "Yes, delete" }).click();
    await page.waitForURL(/done=deleted/);
    expect(await card(page, "Without scripts").count()).toBe(0);
    expect((await listsOf(annaToken)).map((l) => l.name)).not.toContain("Without scripts");
    await ctx.close();
  });
});

/**
 * Where every visible element of the page sits before its scripts run (they
 * are held back) and after hydration: the elements that moved.
 */
async function positionsAcrossHydration(page: Page): Promise<{ changed: string[] }> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const hold = async (route: Route) => {
    await held;
    await route.continue();
  };
  await page.route("**/assets/*.js", hold);
  await page.goto(pageUrl(), { waitUntil: "commit" });
  await page.locator("article.ml-list").last().waitFor({ state: "attached" });
  await page.waitForFunction(() => document.readyState !== "loading");
  const snapshot = () =>
    page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>(".ml *")]
        .filter((e) => e.getClientRects().length > 0)
        .map((e) => {
          const r = e.getBoundingClientRect();
          return `${e.tagName}.${e.className} ${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)}`;
        }),
    );
  const before = await snapshot();
  expect(await page.locator(".ml[data-hydrated]").count()).toBe(0);
  release();
  await page.locator(".ml[data-hydrated]").waitFor();
  const after = await snapshot();
  await page.unroute("**/assets/*.js", hold);
  return { changed: after.filter((line, i) => line !== before[i]).slice(0, 5) };
}

describe("layout and accessibility", () => {
  it("fits 320 px without horizontal scrolling; screenshots at 375 and 1280 px; no serious axe violation", async () => {
    // Something to look at: a shared list with items and a collaborator.
    const list = await api.post("/hosted/me/lists", { token: annaToken, body: { name: "Kitchen", description: "For the new flat" } });
    const kitchen = list.body.list.db_id as number;
    await save(annaToken, kitchen, { title: "Espresso machine with a really long product name that has to wrap nicely", price: 34900, currency: "EUR", priority: 1, imageUrl: storeProductImage(server, dataDir, "#8a3b17") });
    await save(annaToken, kitchen, { title: "Knife set", price: 8900, currency: "EUR", priority: 3 });
    await api.put(`/hosted/lists/${list.body.token}`, { token: annaToken, body: { share_public: true, occasion_slug: "housewarming" } });

    for (const width of [320, 375, 1280]) {
      const out = await context({ viewport: { width, height: 900 } });
      const outPage = await out.newPage();
      await open(outPage);
      expect(await outPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      if (width !== 320) await outPage.screenshot({ path: path.join(screenshots, `my-lists-signed-out-${width}.png`), fullPage: true });
      await out.close();

      const { ctx, page } = await signedIn(anna.email, { viewport: { width, height: 900 } });
      // Nothing moves when the page hydrates (script-only controls have their room from the start).
      expect(await positionsAcrossHydration(page)).toEqual({ changed: [] });
      await card(page, "Kitchen").waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      if (width !== 320) {
        await page.evaluate(() => document.querySelector<HTMLElement>(".ml-toast-close")?.click());
        await page.screenshot({ path: path.join(screenshots, `my-lists-signed-in-${width}.png`), fullPage: true });
      }
      expect(await seriousA11yViolations(page)).toEqual([]);
      // German words are longer: the same page in German fits too.
      await open(page, "de");
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      if (width === 375) await page.screenshot({ path: path.join(screenshots, `my-lists-signed-in-de-${width}.png`), fullPage: true });
      expect(await seriousA11yViolations(page)).toEqual([]);
      await ctx.close();
    }
  });
});

describe("price and stock alerts", () => {
  it("opt in on the page (the box must be ticked), confirm by the e-mailed link's page, unsubscribe by its page, no sign-in; the pages at 375 and 1280 px with screenshots; no serious axe violation", async () => {
    const dora = await emailUser("dora");
    /** Dora's alert e-mails (no SMTP here: the outbox keeps them as their models, app/pages/emails renders them when sent). */
    const mails = async () =>
      (await sql<{ payload: unknown }>(server.databaseUrl, `SELECT payload FROM "OutboxMessage" WHERE topic = ? ORDER BY id DESC`, [`alert:${dora.userId}`])).map(
        (r) => (typeof r.payload === "string" ? JSON.parse(r.payload) : r.payload) as { to: string; model: { template: string; link: string } },
      );
    // The unsubscribe links are signed with the server's key: this worker reads it from the server's database.
    process.env.DATABASE_URL = server.databaseUrl;
    process.env.APP_URL = server.url;
    const { unsubscribeUrl } = await import("~/domains/alerts/consent.server");

    const { ctx, page } = await signedIn(dora.email, { viewport: { width: 1280, height: 900 } });
    const panel = page.locator("section.ml-alerts");
    await expect(panel.getByLabel("E-mail address for alerts").inputValue()).resolves.toBe(dora.email);
    // Unticked, the browser refuses the form: the consent is the shopper's own tick.
    await panel.getByRole("button", { name: "Turn on alerts" }).click();
    await panel.getByLabel("Yes, I want price and stock alerts by e-mail.").check();
    await panel.getByRole("button", { name: "Turn on alerts" }).click();
    await panel.getByText(`Waiting for your confirmation. The link is on its way to ${dora.email}.`).waitFor();
    const sent = await mails();
    expect(sent).toHaveLength(1); // one confirmation: the unticked try sent nothing
    expect(sent[0]!.to).toBe(dora.email);
    expect(sent[0]!.model.template).toBe("alert-confirm");
    const confirm = sent[0]!.model.link;
    expect(confirm).toMatch(/^http\S+\/alerts\/confirm\?\S+$/);
    const unsubscribe = await unsubscribeUrl(dora.userId, dora.email, "en");

    // The links' pages (their GET changes nothing), in both languages and widths, without a session.
    const out = await context();
    for (const width of [375, 1280]) {
      const anonymous = await out.newPage();
      await anonymous.setViewportSize({ width, height: 900 });
      const lang = width === 375 ? "de" : "en";
      for (const [name, url, button] of [
        ["confirm", confirm, lang === "de" ? "Bestätigen" : "Confirm"],
        ["unsubscribe", unsubscribe, lang === "de" ? "Abmelden" : "Unsubscribe"],
      ] as const) {
        await anonymous.goto(url.replace("lang=en", `lang=${lang}`));
        await anonymous.getByRole("button", { name: button }).waitFor();
        expect(await anonymous.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        expect(await seriousA11yViolations(anonymous)).toEqual([]);
        await anonymous.screenshot({ path: path.join(screenshots, `alerts-${name}-${width}.png`), fullPage: true });
      }
      await anonymous.close();
    }

    const link = await out.newPage();
    await link.goto(confirm);
    await link.getByRole("button", { name: "Confirm" }).click();
    await link.getByRole("heading", { name: "Alerts are on" }).waitFor();
    await open(page);
    await panel.getByText(`Alerts go to ${dora.email}.`).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await panel.screenshot({ path: path.join(screenshots, "alerts-panel-on-1280.png") });

    await link.goto(unsubscribe);
    await link.getByRole("button", { name: "Unsubscribe" }).click();
    await link.getByRole("heading", { name: "Unsubscribed" }).waitFor();
    await open(page);
    await panel.getByRole("button", { name: "Turn on alerts" }).waitFor();
    expect(await mails()).toEqual([]); // the address left the outbox with the consent
    await out.close();
    await ctx.close();
  });
});

describe("signing out", () => {
  it("ends the sign-in session: the way in again, and the old cookie no longer works", async () => {
    const { ctx, page } = await signedIn(anna.email);
    const old = (await ctx.cookies()).find((c) => c.name === "wish_user")!;
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await expect.poll(() => toast(page).textContent()).toBe("You are signed out.");
    expect((await ctx.cookies()).find((c) => c.name === "wish_user")).toBeUndefined();
    expect(await page.locator("article.ml-list").count()).toBe(0);

    // The cookie as it was: refused everywhere.
    const replay = await context();
    await replay.addCookies([old]);
    const again = await replay.newPage();
    await open(again);
    await again.getByRole("heading", { name: "Sign in" }).waitFor();
    expect(await again.locator("article.ml-list").count()).toBe(0);
    expect(await again.evaluate(async () => (await fetch("/session/token", { method: "POST" })).json())).toEqual({ session: null });
    await replay.close();
    await ctx.close();
  });
});
