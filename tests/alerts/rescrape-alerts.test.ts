// Alerts on products of no installed shop (docs/alerts.md, "Scraped
// products"), end to end: the built server re-reads saved pages on a schedule
// from a stand-in shop web server in this process (reached through
// FETCH_TEST_ALLOW_HOSTS, as the scraper tests do) whose JSON-LD price and
// availability the tests change between ticks, and the e-mails arrive at a
// real SMTP server in this process (smtp-server). The stand-in counts every
// request, so the cost bounds are checked where they matter: at the shop.
// "Time passing" is a product's due time moved into the past; the ticks
// themselves run every 100 ms (RESCRAPE_TICK_MS).
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api } from "../support/api.ts";
import { provisioner, daysAgo } from "../support/provision.ts";
import { logLines, startServer, type TestServer } from "../support/server.ts";
import { SHOPPER_PASSWORD, signedInShopper } from "../support/shoppers.ts";
import { emailsSettled, startMailSink, type MailSink } from "../support/smtp.ts";
import { sql } from "../support/sql.ts";
import { until } from "../support/wait.ts";

const INTERVAL_MS = 3_600_000;
const MAX_FAILURES = 3;

// ---------------------------------------------------------------- the stand-in shop

interface Page {
  price: string;
  availability: "InStock" | "OutOfStock";
  status: number;
  /** Answer this late (so that overlapping requests would show). */
  delayMs: number;
}

const pages = new Map<string, Page>();
const requests = new Map<string, number>();
/** Requests for slow pages being answered now, and the most at once since the last reset. */
const inFlight = { now: 0, max: 0 };
let shop: http.Server;
let shopOrigin: string;

function productHtml(name: string, page: Page): string {
  const ld = {
    "@context": "https://schema.org",
    "@type": "Product",
    name,
    offers: { "@type": "Offer", price: page.price, priceCurrency: "EUR", availability: `https://schema.org/${page.availability}` },
  };
  return `<!doctype html><html><head><title>${name}</title><script type="application/ld+json">${JSON.stringify(ld)}</script></head><body><h1>${name}</h1></body></html>`;
}

/** A product page of the stand-in shop (a path that is not Shopify-shaped: one request per read). */
function standInProduct(name: string, page: Partial<Page> = {}) {
  const path = `/item/${name}-${suffix()}.html`;
  pages.set(path, { price: "30.00", availability: "InStock", status: 200, delayMs: 0, ...page });
  return { path, url: `${shopOrigin}${path}`, set: (next: Partial<Page>) => pages.set(path, { ...pages.get(path)!, ...next }), hits: () => requests.get(path) ?? 0 };
}

let smtp: MailSink;

const alertMails = (to: string) => smtp.to(to).filter((m) => !m.text.includes("/alerts/confirm?"));

// ---------------------------------------------------------------- setup

let server: TestServer;
let api: Api;
let p: Awaited<ReturnType<typeof provisioner>>;
const suffix = () => Math.random().toString(36).slice(2, 10);

beforeAll(async () => {
  shop = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    requests.set(path, (requests.get(path) ?? 0) + 1);
    const page = pages.get(path);
    if (!page) return void res.writeHead(404).end();
    const slow = page.delayMs > 0;
    if (slow) inFlight.max = Math.max(inFlight.max, ++inFlight.now);
    setTimeout(() => {
      if (slow) inFlight.now--;
      if (page.status !== 200) return void res.writeHead(page.status, { "content-type": "text/plain" }).end("down");
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(productHtml("Oak Lamp", page));
    }, page.delayMs);
  });
  await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", resolve));
  shopOrigin = `http://127.0.0.1:${(shop.address() as { port: number }).port}`;

  smtp = await startMailSink();

  server = await startServer({
    SMTP_URL: smtp.url,
    OUTBOX_POLL_MS: "100",
    ALERTS_PER_DAY: "20",
    FETCH_TEST_ALLOW_HOSTS: shopOrigin.replace("http://", ""),
    RESCRAPE_TICK_MS: "100",
    RESCRAPE_PER_TICK: "2",
    RESCRAPE_INTERVAL_MS: String(INTERVAL_MS),
    RESCRAPE_MAX_FAILURES: String(MAX_FAILURES),
  });
  api = await apiFor(server);
  p = await provisioner(server);
});

afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  await new Promise<void>((resolve) => (shop ? shop.close(() => resolve()) : resolve()));
});

const db = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => sql<T>(server.databaseUrl, text, params);

/** A time as Prisma stores it: ISO text with offset on SQLite, UTC timestamp text on PostgreSQL. */
const stamp = (d: Date) => (server.databaseUrl.startsWith("file:") ? d.toISOString().replace("Z", "+00:00") : d.toISOString().replace("T", " ").replace("Z", ""));

const outboxSettled = () => emailsSettled(server.databaseUrl);

interface Schedule {
  productId: number;
  dueAt: string | Date;
  failures: number;
  gaveUpAt: string | Date | null;
  lastReadAt: string | Date | null;
  lastPriceMinor: number | null;
  lastAvailable: boolean | number | null;
  market: string;
}

const productIdOf = async (url: string) => (await db<{ id: number }>(`SELECT id FROM "Product" WHERE "canonicalUrl" = ?`, [url]))[0]!.id;
const scheduleOf = async (productId: number) => (await db<Schedule>(`SELECT * FROM "ProductRescrape" WHERE "productId" = ?`, [productId]))[0];
const ms = (d: string | Date | null) => (d === null ? NaN : new Date(d).getTime());

/** Time passes for one product: its next read is due now (the ticks pick it up). */
async function makeDue(productId: number) {
  await db(`UPDATE "ProductRescrape" SET "dueAt" = ? WHERE "productId" = ?`, [stamp(new Date(Date.now() - 1000)), productId]);
}

/** Waits for the read after `before` (lastReadAt moves). */
async function nextRead(productId: number, before: Schedule | undefined) {
  return until(`a read of product ${productId}`, () => scheduleOf(productId), (s) => !!s && !!s.lastReadAt && ms(s.lastReadAt) !== ms(before?.lastReadAt ?? null));
}

const password = SHOPPER_PASSWORD;

/** A shopper with an account, signed in to "My lists" (the cookie), with one list. */
const shopper = (name: string) => signedInShopper(server, api, `${name}-${suffix()}@shopper.test`);

type Shopper = Awaited<ReturnType<typeof shopper>>;

/** Saves the page by its address alone (the save reads the page: the catalogue gets its price), in the German market. */
async function save(s: Shopper, url: string) {
  const saved = await api.post("/hosted/save", { token: s.token, body: { wishlistId: s.list.db_id, product: { url, marketCode: "de-DE" } } });
  expect(saved.status).toBe(200);
  return saved.body.item_id as number;
}

/** Saves with title and price given: the save does not read the page. */
async function saveTitled(s: Shopper, url: string) {
  const saved = await api.post("/hosted/save", { token: s.token, body: { wishlistId: s.list.db_id, product: { url, title: "Oak Lamp", price: 3000, currency: "EUR", marketCode: "de-DE" } } });
  expect(saved.status).toBe(200);
}

/** Opts in on "My lists" and confirms with the e-mailed link. */
async function optInConfirmed(s: Shopper, lang: "de" | "en") {
  const res = await fetch(`${server.url}/${lang}/lists`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url, cookie: s.cookie },
    body: new URLSearchParams({ intent: "alerts-on", email: s.email, consent: "yes" }),
  });
  expect(res.status).toBe(303);
  const mail = await until("confirmation e-mail", () => smtp.to(s.email).find((m) => m.text.includes("/alerts/confirm?")));
  const link = /(https?:\/\/\S+\/alerts\/confirm\?\S+)/.exec(mail!.text)![1]!;
  const confirmed = await fetch(link, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "" });
  expect(confirmed.status).toBe(200);
}

// ---------------------------------------------------------------- tests

let anna: Shopper; // German, confirmed
let bea: Shopper; // never opted in

describe("scraped products", () => {
  beforeAll(async () => {
    anna = await shopper("anna");
    bea = await shopper("bea");
    await optInConfirmed(anna, "de");
  });

  it("a price drop: one e-mail to the opted-in shopper with the new price, the previous one and the 30-day low, in her language and the currency; none to a shopper who did not opt in; the Buy-now link leads to the page", async () => {
    const lamp = standInProduct("lamp", { price: "30.00" });
    await save(anna, lamp.url);
    await save(bea, lamp.url);
    const productId = await productIdOf(lamp.url);

    // The first scheduled read records what the page says; nothing changed, nothing is sent.
    const first = await nextRead(productId, undefined);
    expect(first).toMatchObject({ lastPriceMinor: 3000, market: "de-DE", failures: 0 });
    expect(lamp.hits()).toBe(2); // the first save's read (the second found the product titled) and the scheduled one
    // The next read is due one interval later.
    expect(ms(first.dueAt) - ms(first.lastReadAt)).toBeGreaterThan(INTERVAL_MS - 60_000);

    // The catalogue's price history for the market: 19.00 long ago, 32.00 standing when the 30-day window opened, 28.00 within it.
    for (const [price, days] of [[1900, 45], [3200, 35], [2800, 20]] as const) {
      await db(`INSERT INTO "PricePoint" ("productId", "market", "priceMinor", "currency", "recordedAt") VALUES (?, 'de-DE', ?, 'EUR', ?)`, [productId, price, stamp(daysAgo(days))]);
    }
    lamp.set({ price: "25.00" });
    await makeDue(productId);
    const second = await nextRead(productId, first);
    expect(second.lastPriceMinor).toBe(2500);
    expect(lamp.hits()).toBe(3);
    await outboxSettled();
    const mails = await until("the price-drop e-mail", () => alertMails(anna.email), (m) => m.length > 0);
    expect(mails).toHaveLength(1);
    const [de] = mails;
    expect(de!.subject).toBe("Preissenkung: Oak Lamp jetzt 25,00 €");
    expect(de!.text).toContain("Oak Lamp kostet jetzt 25,00 € statt 30,00 €.");
    expect(de!.text).toContain("Niedrigster Preis der letzten 30 Tage vor der Senkung: 28,00 €");
    expect(de!.html).toContain("<s>30,00 €</s>");
    // The Buy-now link is the click-through, which leads to the page itself (no wish_ref, as no installed shop reads one):
    // no installed shop speaks for the page, so it is shown as a plain link rather than redirected to.
    const buy = await fetch(/Jetzt kaufen: (\S+)/.exec(de!.text)![1]!, { redirect: "manual" });
    expect([buy.status, buy.headers.get("location")]).toEqual([200, null]);
    expect(await buy.text()).toContain(`href="${lamp.url}" rel="noopener noreferrer nofollow"`);
    expect(de!.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    expect(de!.headers.from).toContain("no-reply@localhost"); // MAIL_FROM: no merchant's sender name
    expect(alertMails(bea.email)).toEqual([]);
    const [sent] = await db<{ shopId: number | null; kind: string; priceMinor: number }>(`SELECT "shopId", kind, "priceMinor" FROM "AlertSent" WHERE "userId" = ?`, [anna.userId]);
    expect(sent).toMatchObject({ shopId: null, kind: "price_drop", priceMinor: 2500 });

    // The same price read again sends nothing more.
    await makeDue(productId);
    await nextRead(productId, second);
    await outboxSettled();
    expect(alertMails(anna.email)).toHaveLength(1);
  });

  it("back in stock: one e-mail when a page that said out of stock says in stock", async () => {
    const chair = standInProduct("chair", { price: "80.00", availability: "OutOfStock" });
    await save(anna, chair.url);
    const productId = await productIdOf(chair.url);
    const first = await nextRead(productId, undefined);
    expect(Boolean(first.lastAvailable)).toBe(false);
    const before = alertMails(anna.email).length;

    chair.set({ availability: "InStock" });
    await makeDue(productId);
    const second = await nextRead(productId, first);
    expect(Boolean(second.lastAvailable)).toBe(true);
    await outboxSettled();
    const mail = await until("the back-in-stock e-mail", () => alertMails(anna.email).slice(before), (m) => m.length > 0);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe("Wieder verfügbar: Oak Lamp");
    expect(mail[0]!.text).toContain("Jetzt: 80,00 €");
  });

  it("a save through a partner's widget follows the partner's plan: Free sends back in stock, not price drops", async () => {
    const partner = await p.partner("free");
    const key = await p.key(partner.id);
    const init = await api.post("/widget/init", { headers: { authorization: `Bearer ${key.key}` }, body: { origin: "https://partner.example.com" } });
    expect(init.status).toBe(200);
    const dora = await shopper("dora");
    await optInConfirmed(dora, "en");
    const vase = standInProduct("vase", { price: "50.00", availability: "OutOfStock" });
    const saved = await api.post("/widget/save", {
      token: dora.token,
      headers: { "x-widget-token": init.body.token as string },
      body: { wishlistId: dora.list.db_id, product: { url: vase.url, marketCode: "de-DE" } },
    });
    expect(saved.status).toBe(200);
    const productId = await productIdOf(vase.url);
    const first = await nextRead(productId, undefined);

    vase.set({ price: "40.00" });
    await makeDue(productId);
    const second = await nextRead(productId, first);
    expect(second.lastPriceMinor).toBe(4000);
    vase.set({ availability: "InStock" });
    await makeDue(productId);
    await nextRead(productId, second);
    await outboxSettled();
    const mails = await until("dora's back-in-stock e-mail", () => alertMails(dora.email), (m) => m.length > 0);
    expect(mails.map((m) => m.subject)).toEqual(["Back in stock: Oak Lamp"]);
  });

  it("at most RESCRAPE_PER_TICK products a tick, each at most once per interval however many ticks run", async () => {
    const ticksAtStart = logLines(server, "rescrape tick").length;
    const sofas = Array.from({ length: 5 }, (_, i) => standInProduct(`sofa${i}`));
    for (const s of sofas) await save(anna, s.url);
    const ids = await Promise.all(sofas.map((s) => productIdOf(s.url)));
    await until("every sofa read", async () => Promise.all(ids.map(scheduleOf)), (rows) => rows.every((r) => r?.lastReadAt));
    // Five due products, two a tick at most: at least three ticks read them (a tick's line follows its last read).
    await until("three ticks logged", () => logLines(server, "rescrape tick").length - ticksAtStart, (n) => n >= 3);
    const ticks = logLines(server, "rescrape tick").map((l) => Number(l.products));
    expect(Math.max(...ticks)).toBeLessThanOrEqual(2);
    // Many more ticks: a table that a later save brings in is read too, while the sofas (read once) wait for their interval.
    const later = standInProduct("later");
    await save(anna, later.url);
    await nextRead(await productIdOf(later.url), undefined);
    const ticksBefore = logLines(server, "rescrape tick").length;
    const table = standInProduct("table");
    await save(anna, table.url);
    await nextRead(await productIdOf(table.url), undefined);
    await until("a later tick logged", () => logLines(server, "rescrape tick").length, (n) => n > ticksBefore);
    // One read at the save, one scheduled read: never more within the interval.
    expect(sofas.map((s) => s.hits())).toEqual([2, 2, 2, 2, 2]);
    expect(later.hits()).toBe(2);
  });

  it("a host left busy by a holder that died mid-read is read again by the next holder at once, not after the hold", async () => {
    const lamp = standInProduct("lamp-after-crash");
    await save(anna, lamp.url);
    const id = await productIdOf(lamp.url);
    const first = await nextRead(id, undefined);
    // What a holder that died during a read leaves: the host marked busy by it for two more minutes.
    await db(`UPDATE "RescrapeHost" SET "busyBy" = ?, "busyUntil" = ?`, ["gone-host/4242/dead", stamp(new Date(Date.now() + 120_000))]);
    await makeDue(id);
    await nextRead(id, first);
  });

  it("a failing page backs off (interval × 2, × 4) and is given up after RESCRAPE_MAX_FAILURES; a new save brings it back", async () => {
    const stool = standInProduct("stool", { status: 500 });
    await saveTitled(anna, stool.url);
    const productId = await productIdOf(stool.url);
    let last = await nextRead(productId, undefined);
    for (let failures = 1; failures < MAX_FAILURES; failures++) {
      expect(last.failures).toBe(failures);
      expect(last.gaveUpAt).toBeNull();
      // Less often with every failure in a row.
      const gap = ms(last.dueAt) - ms(last.lastReadAt);
      expect(gap).toBeGreaterThan(INTERVAL_MS * 2 ** failures - 60_000);
      expect(gap).toBeLessThanOrEqual(INTERVAL_MS * 2 ** failures);
      await makeDue(productId);
      last = await nextRead(productId, last);
    }
    expect(last.failures).toBe(MAX_FAILURES);
    expect(last.gaveUpAt).not.toBeNull();
    const hits = stool.hits();
    expect(hits).toBe(MAX_FAILURES);

    // Given up: even when due, not read, while other products are.
    await makeDue(productId);
    const other = standInProduct("bench");
    await save(anna, other.url);
    await nextRead(await productIdOf(other.url), undefined);
    expect(stool.hits()).toBe(hits);

    // Another shopper saves it to their list: it is read again (the page is back).
    stool.set({ status: 200 });
    const carl = await shopper("carl");
    await saveTitled(carl, stool.url);
    const revived = await nextRead(productId, last);
    expect(revived).toMatchObject({ failures: 0, gaveUpAt: null });
    expect(stool.hits()).toBe(hits + 1);
  });

  it("products nobody would be told about are not read", async () => {
    const shelf = standInProduct("shelf");
    await save(bea, shelf.url); // bea never opted in
    const productId = await productIdOf(shelf.url);
    const other = standInProduct("rug");
    await save(anna, other.url);
    await nextRead(await productIdOf(other.url), undefined);
    expect(await scheduleOf(productId)).toBeUndefined();
    expect(shelf.hits()).toBe(1); // the save's read only
    // Every read so far ended as a result (read, failed, given up), none in an unexpected error.
    expect(logLines(server, "rescrape failed unexpectedly")).toEqual([]);
    expect(logLines(server, "rescrape poll failed")).toEqual([]);
  });
});

describe("two processes sharing one database", () => {
  let first: TestServer;
  let second: TestServer;

  // Started before the test (under the hook timeout): on a loaded machine two server starts take seconds of the test's 30.
  beforeAll(async () => {
    const env = {
      FETCH_TEST_ALLOW_HOSTS: shopOrigin.replace("http://", ""),
      RESCRAPE_TICK_MS: "50",
      RESCRAPE_PER_TICK: "10",
      RESCRAPE_INTERVAL_MS: String(INTERVAL_MS),
      RESCRAPE_HOST_DAILY_CAP: "4",
    };
    first = await startServer(env);
    second = await startServer({ ...env, DATABASE_URL: first.databaseUrl });
  });
  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
  });

  it("read each due product once between them, one request at a time per host, and stop at the host's daily cap", async () => {
    const own = await apiFor(first);
    const user = await own.post("/auth/signup", { body: { email: `eve-${suffix()}@shopper.test`, password } });
    const token = user.body.access_token as string;
    const list = await own.post("/hosted/me/lists", { token, body: { name: "Mine" } });
    // Consent is arranged here (the opt-in itself is shown above); the saves give title and price, so only the schedule reads.
    await sql(first.databaseUrl, `INSERT INTO "AlertConsent" ("userId", email, lang, "confirmedAt", "createdAt") VALUES (?, 'eve@shopper.test', 'en', ?, ?)`, [
      user.body.user.id,
      stamp(new Date()),
      stamp(new Date()),
    ]);
    // Slow pages: two reads of the host at once would overlap at the stand-in.
    const lamps = Array.from({ length: 6 }, (_, i) => standInProduct(`pair${i}`, { delayMs: 150 }));
    inFlight.max = 0;
    for (const l of lamps) {
      const saved = await own.post("/hosted/save", { token, body: { wishlistId: list.body.list.db_id, product: { url: l.url, title: "Lamp", price: 1000, currency: "EUR" } } });
      expect(saved.status).toBe(200);
    }
    const db2 = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => sql<T>(first.databaseUrl, text, params);
    // Four reads (the cap), the other two wait for the next UTC day.
    await until(
      "the host's daily cap used",
      () => db2<{ count: number; busyBy: string | null }>(`SELECT count, "busyBy" FROM "RescrapeHost"`),
      (rows) => rows.length === 1 && Number(rows[0]!.count) === 4 && rows[0]!.busyBy === null,
    );
    const rows = await until(
      "the two left over deferred",
      () => db2<{ lastReadAt: string | null; dueAt: string; claimedBy: string | null }>(`SELECT "lastReadAt", "dueAt", "claimedBy" FROM "ProductRescrape"`),
      (r) => r.length === 6 && r.filter((x) => x.lastReadAt === null).every((x) => x.claimedBy === null && ms(x.dueAt) > Date.now()),
    );
    expect(rows.filter((r) => r.lastReadAt !== null)).toHaveLength(4);
    const tomorrow = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`) + 86_400_000;
    for (const r of rows.filter((x) => x.lastReadAt === null)) expect(ms(r.dueAt)).toBe(tomorrow);
    expect(lamps.map((l) => l.hits()).sort()).toEqual([0, 0, 1, 1, 1, 1]);
    expect(inFlight.max).toBe(1);
  });

  it("claims: two holders claiming at once get disjoint products", async () => {
    // The claim statement itself, from two callers at once, on the first part's database (this test's app modules
    // are bound to it), after its server stopped: no tick claims beside them.
    await server.stop();
    const { claimDue } = await import("~/domains/alerts/rescrape-alerts.server");
    await db(`UPDATE "ProductRescrape" SET "dueAt" = ?, "claimedBy" = NULL WHERE "gaveUpAt" IS NULL`, [stamp(new Date(Date.now() - 1000))]);
    const due = await db<{ productId: number }>(`SELECT "productId" FROM "ProductRescrape" WHERE "gaveUpAt" IS NULL`);
    expect(due.length).toBeGreaterThan(5);
    const now = new Date();
    const [a, b] = await Promise.all([claimDue(now, 100, "holder-a"), claimDue(now, 100, "holder-b")]);
    const ids = [...a, ...b].map((c) => c.productId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual(due.map((d) => d.productId).sort());
    const held = await db<{ productId: number; claimedBy: string }>(`SELECT "productId", "claimedBy" FROM "ProductRescrape" WHERE "gaveUpAt" IS NULL`);
    for (const h of held) expect(h.claimedBy).toBe(a.some((c) => c.productId === h.productId) ? "holder-a" : "holder-b");
  });
});
