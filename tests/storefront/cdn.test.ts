// Share pages and link previews behind a CDN (docs/operations.md "Running
// behind a CDN"): the cache headers of every state, validators and 304s, the
// purge that follows each kind of change (through the outbox, retried), and
// list_view metering that counts each view once whether the page came from
// the cache or from the origin. tests/support/caching-proxy.ts stands in for
// the CDN (and receives the purges).
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api } from "../support/api.ts";
import { launchBrowser } from "../support/browser.ts";
import { startCachingProxy, type CachingProxy } from "../support/caching-proxy.ts";
import { provisioner } from "../support/provision.ts";
import { freePort, startServer, type TestServer } from "../support/server.ts";
import { headTags } from "../support/shared-list.ts";
import { sql } from "../support/sql.ts";
import { until } from "../support/wait.ts";

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
const SHARED = "public, max-age=0, s-maxage=60, stale-while-revalidate=300";
const PURGE_TOKEN = "purge-token-for-tests";

let proxy: CachingProxy;
let server: TestServer;
let api: Api;
let p: Awaited<ReturnType<typeof provisioner>>;
let browser: Browser | undefined;
/** A shop's product page (JSON-LD), whose title and price the test changes. */
let shopPage: Server;
let shopPort: number;
const shopProduct = { title: "Teekanne", price: "24.00" };

beforeAll(async () => {
  shopPort = await freePort();
  shopPage = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    const product = { "@type": "Product", name: shopProduct.title, offers: { "@type": "Offer", price: shopProduct.price, priceCurrency: "EUR" } };
    res.end(`<html><head><title>${shopProduct.title}</title><script type="application/ld+json">${JSON.stringify(product)}</script></head></html>`);
  });
  await new Promise<void>((r) => shopPage.listen(shopPort, "127.0.0.1", r));
  proxy = await startCachingProxy();
  server = await startServer({
    FETCH_TEST_ALLOW_HOSTS: `127.0.0.1:${shopPort}`,
    CDN_PURGE_URL: `${proxy.url}/__purge`,
    CDN_PURGE_TOKEN: PURGE_TOKEN,
    OUTBOX_POLL_MS: "50",
    OUTBOX_BACKOFF_SCALE: "0.001",
    // The proxy (127.0.0.1) names each viewer in X-Forwarded-For.
    TRUSTED_PROXIES: "127.0.0.1",
  });
  proxy.setOrigin(server.url);
  api = await apiFor(server);
  p = await provisioner(server);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await proxy?.stop();
  await new Promise((r) => shopPage?.close(r));
});

/** A public list whose items a partner's widget saved (the partner is metered for its views). */
async function partnerList() {
  const partner = await p.partner("starter");
  const key = await p.key(partner.id);
  const pat = (await p.pat(partner.id)).token;
  const init = await api.post("/widget/init", { headers: { authorization: `Bearer ${key.key}` }, body: { origin: "https://cdn-shop.example.com" } });
  expect(init.status, init.text).toBe(200);
  const owner = await api.anonymousUser();
  const created = await api.post("/hosted/me/lists", { token: owner.accessToken, body: { name: "Geburtstag" } });
  expect(created.status, created.text).toBe(200);
  const dbId: number = created.body.list.db_id;
  const token: string = created.body.token;
  const save = async (title: string, price: number) => {
    const res = await api.post("/widget/save", {
      token: owner.accessToken,
      headers: { "x-widget-token": init.body.token },
      body: { wishlistId: dbId, product: { url: `https://cdn-shop.example.com/products/${Math.random().toString(36).slice(2)}`, title, price, currency: "EUR" } },
    });
    expect(res.status, res.text).toBe(200);
    return { itemId: res.body.item_id as number, productId: res.body.product_id as number };
  };
  const first = await save("Brettspiel", 3999);
  const shared = await api.put(`/hosted/lists/${token}`, { token: owner.accessToken, body: { share_public: true } });
  expect(shared.status, shared.text).toBe(200);
  await purgesSettled();
  return { partner, pat, owner, token, dbId, save, first };
}

/** Every purge queued so far has been delivered (or given up): later ones cannot empty the cache behind a test's back. */
async function purgesSettled(): Promise<void> {
  await until(
    "queued purges delivered",
    async () => (await sql<{ n: number }>(server.databaseUrl, `SELECT COUNT(*) AS n FROM "OutboxMessage" WHERE kind = 'cdn_purge' AND status = 'pending'`))[0]!.n,
    (n) => Number(n) === 0,
  );
}

async function listViews(partnerId: number): Promise<number> {
  const [row] = await sql<{ listViews: number }>(server.databaseUrl, `SELECT "listViews" FROM "UsageCounter" WHERE "partnerId" = ?`, [partnerId]);
  return Number(row?.listViews ?? 0);
}

const pagePath = (token: string, lang = "en") => `/${lang}/list/${encodeURIComponent(token)}`;
const get = (base: string, path: string, headers: Record<string, string> = {}) => fetch(base + path, { headers: { "user-agent": BROWSER, ...headers } });
/** What the page's script sends after it loaded (the beacon), as the viewer `client` behind the proxy. */
const beacon = (base: string, token: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${pagePath(token)}/view`, { method: "POST", headers: { "user-agent": BROWSER, origin: base, ...headers } });

/** The site's sign-in cookie for `accessToken`, as the hosted dialog sets it. */
async function siteCookie(accessToken: string): Promise<string> {
  const res = await fetch(`${server.url}/session/cookie`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ access_token: accessToken }),
  });
  expect(res.status, await res.text()).toBeLessThan(300);
  return res.headers.get("set-cookie")!.split(";")[0]!;
}

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

describe("cache headers per state", () => {
  it("a public page: shared-cacheable with a strong ETag, 304 on If-None-Match, cache keys, no cookie, scripts allowed by hash", async () => {
    const l = await partnerList();
    const res = await get(server.url, pagePath(l.token));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe(SHARED);
    expect(res.headers.get("vary")).toBe("Cookie");
    expect(res.headers.get("set-cookie")).toBeNull();
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    const keys = res.headers.get("surrogate-key")!.split(" ");
    expect(keys).toEqual([`wl-list-${l.dbId}`, `wl-product-${l.first.productId}`, `wl-partner-${l.partner.id}`]);
    expect(res.headers.get("cache-tag")).toBe(keys.join(","));
    const html = await res.text();
    // No per-response nonce: every inline script is allowed by its hash, so a cached copy runs.
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).not.toContain("nonce-");
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts.length).toBe(2); // the purchased toggle and the view beacon
    for (const script of scripts) expect(csp).toContain(sha256(script));
    expect(html).toContain(`<noscript><img class="share-beacon" src="${pagePath(l.token)}/view"`);
    // The same bytes again: the same validator.
    const again = await get(server.url, pagePath(l.token));
    expect(again.headers.get("etag")).toBe(etag);
    expect(await again.text()).toBe(html);

    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`]) {
      const cond = await get(server.url, pagePath(l.token), { "if-none-match": ifNoneMatch });
      expect(cond.status, ifNoneMatch).toBe(304);
      expect(await cond.text()).toBe("");
      expect(cond.headers.get("etag")).toBe(etag);
      expect(cond.headers.get("cache-control")).toBe(SHARED);
      expect(cond.headers.get("surrogate-key")).toBe(keys.join(" "));
    }
    expect((await get(server.url, pagePath(l.token), { "if-none-match": '"stale"' })).status).toBe(200);
    // The other language is another page with its own validator.
    const de = await get(server.url, pagePath(l.token, "de"));
    expect(de.headers.get("cache-control")).toBe(SHARED);
    expect(de.headers.get("etag")).not.toBe(etag);
    const head = await fetch(server.url + pagePath(l.token), { method: "HEAD", headers: { "user-agent": BROWSER } });
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toBe(etag);
    expect(head.headers.get("cache-control")).toBe(SHARED);
  });

  it("the signed-in owner's page, the page after a form post, private and unknown lists and the beacon are never shareable", async () => {
    const l = await partnerList();
    const owner = await get(server.url, pagePath(l.token), { cookie: await siteCookie(l.owner.accessToken) });
    expect(owner.status).toBe(200);
    expect(owner.headers.get("cache-control")).toBe("private, no-store");
    expect(owner.headers.get("etag")).toBeNull();
    expect(owner.headers.get("surrogate-key")).toBeNull();
    expect(await owner.text()).not.toContain("share-beacon"); // counted while made, no beacon
    // Another signed-in visitor: also made for them alone.
    const other = await get(server.url, pagePath(l.token), { cookie: await siteCookie((await api.anonymousUser()).accessToken) });
    expect(other.headers.get("cache-control")).toBe("private, no-store");

    // The no-JavaScript purchased toggle: 303 to ?fresh=1, which the origin answers itself.
    const form = await fetch(server.url + pagePath(l.token), {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url, "user-agent": BROWSER },
      body: `itemId=${l.first.itemId}&purchased=true`,
    });
    expect(form.status).toBe(303);
    expect(form.headers.get("cache-control")).toBe("no-store");
    expect(form.headers.get("location")).toBe(`${pagePath(l.token)}?fresh=1`);
    const fresh = await get(server.url, `${pagePath(l.token)}?fresh=1`);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("cache-control")).toBe("private, no-store");

    const hidden = await api.put(`/hosted/lists/${l.token}`, { token: l.owner.accessToken, body: { share_public: false } });
    expect(hidden.status).toBe(200);
    for (const path of [pagePath(l.token), pagePath("unknown-token-0000000000")]) {
      const res = await get(server.url, path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("cache-control"), path).toBe("no-store");
      expect(res.headers.get("etag")).toBeNull();
    }
    const og = await fetch(`${server.baseUrl}/og/list/${l.token}`);
    expect(og.status).toBe(404);
    expect(og.headers.get("cache-control")).toBe("no-store");
    const missingBeacon = await beacon(server.url, l.token);
    expect(missingBeacon.status).toBe(404);
    expect(missingBeacon.headers.get("cache-control")).toBe("no-store");
  });

  it("the beacon: POST 204, the <noscript> image a GIF, both no-store", async () => {
    const l = await partnerList();
    const post = await beacon(server.url, l.token, { "x-forwarded-for": "192.0.2.10" });
    expect(post.status).toBe(204);
    expect(post.headers.get("cache-control")).toBe("no-store");
    expect(post.headers.get("set-cookie")).toMatch(/^wl_viewer=/);
    const img = await get(server.url, `${pagePath(l.token)}/view`, { "x-forwarded-for": "192.0.2.11" });
    expect(img.status).toBe(200);
    expect(img.headers.get("content-type")).toBe("image/gif");
    expect(img.headers.get("cache-control")).toBe("no-store");
    expect(Buffer.from(await img.arrayBuffer()).subarray(0, 6).toString("latin1")).toBe("GIF89a");
    const views = await listViews(l.partner.id);
    expect(views).toBe(2);
    // A HEAD (a link checker) counts nothing.
    const head = await fetch(`${server.url}${pagePath(l.token)}/view`, { method: "HEAD", headers: { "user-agent": BROWSER, "x-forwarded-for": "192.0.2.12" } });
    expect(head.status).toBe(200);
    expect(head.headers.get("cache-control")).toBe("no-store");
    expect(await listViews(l.partner.id)).toBe(views);
  });

  it("link previews: the document shared-cacheable with ETag and 304; the image immutable at a URL that names its content", async () => {
    const l = await partnerList();
    const doc = await fetch(`${server.baseUrl}/og/list/${l.token}?lang=de`);
    expect(doc.status).toBe(200);
    expect(doc.headers.get("cache-control")).toBe(SHARED);
    expect(doc.headers.get("surrogate-key")!.split(" ")).toContain(`wl-list-${l.dbId}`);
    const etag = doc.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    const image = headTags(await doc.text()).meta["og:image"]!;
    const cond = await fetch(`${server.baseUrl}/og/list/${l.token}?lang=de`, { headers: { "if-none-match": etag } });
    expect(cond.status).toBe(304);
    expect(cond.headers.get("cache-control")).toBe(SHARED);
    const png = await fetch(image);
    expect(png.status).toBe(200);
    expect(png.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const pngTag = png.headers.get("etag")!;
    expect((await fetch(image, { headers: { "if-none-match": `W/${pngTag}` } })).status).toBe(304);
  });
});

describe("list_view metering behind a cache", () => {
  it("each view counts once whether the page came from the cache or from the origin; pages made by the origin count nothing themselves", async () => {
    const l = await partnerList();
    const before = await listViews(l.partner.id);
    // Ten viewers through the cache: one page reaches the origin, every beacon does.
    for (let i = 1; i <= 10; i++) {
      const client = { "x-test-client": `198.51.100.${i}` };
      const page = await get(proxy.url, pagePath(l.token), client);
      expect(page.status).toBe(200);
      await page.text();
      expect((await beacon(proxy.url, l.token, client)).status).toBe(204);
    }
    expect(proxy.stats.forwarded.get(pagePath(l.token))).toBe(1);
    expect(proxy.stats.hits.get(pagePath(l.token))).toBe(9);
    expect(proxy.stats.forwarded.get(`${pagePath(l.token)}/view`)).toBe(10);
    expect(await listViews(l.partner.id)).toBe(before + 10);
    // A viewer again in the same window: SPEC 8's dedup, not a second view.
    await get(proxy.url, pagePath(l.token), { "x-test-client": "198.51.100.1" });
    await beacon(proxy.url, l.token, { "x-test-client": "198.51.100.1" });
    expect(await listViews(l.partner.id)).toBe(before + 10);

    // Straight from the origin (cache missed or bypassed): the page counts nothing, its beacon one view.
    for (let i = 1; i <= 3; i++) {
      const headers = { "x-forwarded-for": `203.0.113.${i}` };
      expect((await get(server.url, pagePath(l.token), headers)).status).toBe(200);
      expect(await listViews(l.partner.id)).toBe(before + 10 + i - 1);
      expect((await beacon(server.url, l.token, headers)).status).toBe(204);
      expect(await listViews(l.partner.id)).toBe(before + 10 + i);
    }
    // Crawlers fetching the page or even the beacon count nothing.
    await beacon(proxy.url, l.token, { "x-test-client": "198.51.100.99", "user-agent": "facebookexternalhit/1.1" });
    expect(await listViews(l.partner.id)).toBe(before + 13);

    // A signed-in visitor's page is counted while it is made (and has no beacon): once.
    const viewer = await api.anonymousUser();
    const cookie = await siteCookie(viewer.accessToken);
    const personal = await get(proxy.url, pagePath(l.token), { cookie, "x-test-client": "198.51.100.50" });
    expect(personal.headers.get("cache-control")).toBe("private, no-store");
    expect(await personal.text()).not.toContain("share-beacon");
    expect(await listViews(l.partner.id)).toBe(before + 14);
  });

  it("real browsers through the cache: the page's script counts the view, and without JavaScript the <noscript> image does", async () => {
    const l = await partnerList();
    // The cache holds the page before the browsers come.
    await (await get(proxy.url, pagePath(l.token), { "x-test-client": "198.51.100.200" })).text();
    const before = await listViews(l.partner.id);
    browser ??= await launchBrowser();
    for (const [i, javaScriptEnabled] of [true, false].entries()) {
      const ctx = await browser.newContext({ userAgent: BROWSER, javaScriptEnabled, extraHTTPHeaders: { "x-test-client": `198.51.100.${210 + i}` } });
      const page = await ctx.newPage();
      const hitsBefore = proxy.stats.hits.get(pagePath(l.token)) ?? 0;
      const res = await page.goto(proxy.url + pagePath(l.token));
      expect(res!.status()).toBe(200);
      expect(proxy.stats.hits.get(pagePath(l.token))).toBe(hitsBefore + 1); // from the cache
      await until(`view counted (JavaScript ${javaScriptEnabled})`, () => listViews(l.partner.id), (n) => n === before + i + 1);
      await ctx.close();
    }
    expect(await listViews(l.partner.id)).toBe(before + 2);
  });
});

describe("changes purge the cache", () => {
  it("each kind of change reaches the purge receiver with the right keys (retried when it fails), and the next view shows it", async () => {
    const l = await partnerList();
    const page = pagePath(l.token);
    const listTag = `wl-list-${l.dbId}`;
    /** Warms the cache, makes the change, waits for its purge, and returns the page as the cache then serves it. */
    const afterChange = async (what: string, tag: string, change: () => Promise<unknown>) => {
      await purgesSettled();
      const warm = await get(proxy.url, page, { "x-test-client": "192.0.2.1" });
      const etag = warm.headers.get("etag");
      expect(etag, what).toBeTruthy();
      await warm.text();
      const hit = await get(proxy.url, page, { "x-test-client": "192.0.2.1" });
      await hit.text();
      const forwarded = proxy.stats.forwarded.get(page) ?? 0;
      const seen = proxy.purges.length;
      await change();
      await until(`purge for ${what}`, () => proxy.purges.slice(seen), (ps) => ps.some((x) => x.status === 200 && x.tags.includes(tag)));
      const after = await get(proxy.url, page, { "x-test-client": "192.0.2.1" });
      expect(proxy.stats.forwarded.get(page), `${what}: the purged page came from the origin`).toBe(forwarded + 1);
      if (after.status === 200) expect(after.headers.get("etag"), `${what}: a new validator`).not.toBe(etag);
      return { res: after, html: await after.text(), purges: proxy.purges.slice(seen) };
    };

    const added = await afterChange("item added", listTag, () => l.save("Roman", 1250));
    expect(added.html).toContain("Roman");

    const [firstItem] = await sql<{ id: number }>(server.databaseUrl, `SELECT id FROM "ListItem" WHERE "wishlistId" = ? ORDER BY id LIMIT 1`, [l.dbId]);
    const bought = await afterChange("marked bought", listTag, () =>
      api.put(`/hosted/public/lists/${l.token}/items/${firstItem!.id}/purchased`, { noApiKey: true, body: { purchased: true } }),
    );
    expect(bought.html).toContain("is-purchased");

    // The receiver fails the first purge of the rename: the outbox tries again.
    const ogBefore = headTags(await (await get(proxy.url, `/api/v1/og/list/${l.token}`)).text()).meta["og:image"];
    proxy.failNextPurges(1);
    const renamed = await afterChange("renamed", listTag, () => api.put(`/hosted/lists/${l.token}`, { token: l.owner.accessToken, body: { name: "Weihnachten" } }));
    expect(renamed.html).toContain("<h1 id=\"list-name\">Weihnachten</h1>");
    const renamePurges = renamed.purges.filter((x) => x.tags.includes(listTag));
    expect(renamePurges.map((x) => x.status)).toEqual([503, 200]);
    expect(renamePurges[0]!.tags).toEqual(renamePurges[1]!.tags);
    for (const x of renamePurges) {
      expect(x.authorization).toBe(`Bearer ${PURGE_TOKEN}`);
      expect(x.surrogateKey).toBe(x.tags.join(" "));
    }
    // The preview document was purged by the same key; its image URL names the new content.
    const og = headTags(await (await get(proxy.url, `/api/v1/og/list/${l.token}`)).text()).meta;
    expect(og["og:title"]).toBe("Weihnachten");
    expect(og["og:image"]).not.toBe(ogBefore);

    const removed = await afterChange("item removed", listTag, () => api.delete(`/hosted/lists/${l.token}/items/${firstItem!.id}`, { token: l.owner.accessToken }));
    expect(removed.html).not.toContain("Brettspiel");

    const branded = await afterChange("shop branding", `wl-partner-${l.partner.id}`, () =>
      api.post("/partner/baskets", { token: l.pat, body: { primaryColor: "#aa3300" } }),
    );
    expect(branded.html).toContain("--accent:#aa3300");

    const hidden = await afterChange("made private", listTag, () => api.put(`/hosted/lists/${l.token}`, { token: l.owner.accessToken, body: { share_public: false } }));
    expect(hidden.res.status).toBe(404);
    expect(hidden.res.headers.get("cache-control")).toBe("no-store");
    // Public again, then deleted.
    expect((await api.put(`/hosted/lists/${l.token}`, { token: l.owner.accessToken, body: { share_public: true } })).status).toBe(200);
    await purgesSettled();
    expect((await get(proxy.url, page, { "x-test-client": "192.0.2.1" })).status).toBe(200);
    const deleted = await afterChange("deleted", listTag, () => api.delete(`/hosted/lists/${l.token}`, { token: l.owner.accessToken }));
    expect(deleted.res.status).toBe(404);
  });

  it("a product's new title and price (re-read from its page) purge every list that holds it, by the product's key", async () => {
    const url = `http://127.0.0.1:${shopPort}/products/teekanne`;
    const lists = [];
    for (const name of ["Anna", "Ben"]) {
      const owner = await api.anonymousUser();
      const created = await api.post("/hosted/me/lists", { token: owner.accessToken, body: { name: `${name}s Liste` } });
      const saved = await api.post("/hosted/save", { token: owner.accessToken, body: { wishlistId: created.body.list.db_id, product: { url, marketCode: "de-DE" } } });
      expect(saved.status, saved.text).toBe(200);
      expect((await api.put(`/hosted/lists/${created.body.token}`, { token: owner.accessToken, body: { share_public: true } })).status).toBe(200);
      lists.push({ owner, token: created.body.token as string, itemId: saved.body.item_id as number, productId: saved.body.product_id as number });
    }
    const [anna, ben] = lists as [(typeof lists)[0], (typeof lists)[0]];
    expect(ben.productId).toBe(anna.productId);
    await purgesSettled();
    // Ben's page is in the cache with the old title.
    const old = await get(proxy.url, pagePath(ben.token, "de"));
    expect(await old.text()).toContain("Teekanne");
    expect(old.headers.get("surrogate-key")!.split(" ")).toContain(`wl-product-${ben.productId}`);
    const cached = await get(proxy.url, pagePath(ben.token, "de"));
    await cached.text();
    const forwarded = proxy.stats.forwarded.get(pagePath(ben.token, "de"));

    shopProduct.title = "Teekanne aus Gusseisen";
    shopProduct.price = "39.00";
    const seen = proxy.purges.length;
    const rescraped = await api.post(`/hosted/lists/${anna.token}/items/${anna.itemId}/rescrape`, { token: anna.owner.accessToken });
    expect(rescraped.status, rescraped.text).toBe(200);
    await until("product purge", () => proxy.purges.slice(seen), (ps) => ps.some((x) => x.status === 200 && x.tags.includes(`wl-product-${ben.productId}`)));
    const fresh = await get(proxy.url, pagePath(ben.token, "de"));
    expect(proxy.stats.forwarded.get(pagePath(ben.token, "de"))).toBe(forwarded! + 1);
    expect(fresh.headers.get("etag")).not.toBe(old.headers.get("etag"));
    const html = await fresh.text();
    expect(html).toContain("Teekanne aus Gusseisen");
    expect(html).toContain("39,00");
  });

  it("a revalidation of an unchanged page is a 304 at the origin; a changed one is a new copy", async () => {
    const l = await partnerList();
    const page = pagePath(l.token);
    const first = await get(proxy.url, page);
    const firstHtml = await first.text();
    proxy.expireAll();
    const { revalidated, notModified } = proxy.stats;
    const second = await get(proxy.url, page);
    expect(second.status).toBe(200);
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(await second.text()).toBe(firstHtml);
    expect(proxy.stats.revalidated).toBe(revalidated + 1);
    expect(proxy.stats.notModified).toBe(notModified + 1);
    // Changed meanwhile (here without a purge: the copy is only stale): the revalidation brings the new page.
    expect((await api.put(`/hosted/lists/${l.token}`, { token: l.owner.accessToken, body: { name: "Neu" } })).status).toBe(200);
    await purgesSettled();
    proxy.expireAll();
    const third = await get(proxy.url, page);
    expect(third.headers.get("etag")).not.toBe(first.headers.get("etag"));
    expect(await third.text()).toContain("<h1 id=\"list-name\">Neu</h1>");
    expect(proxy.stats.notModified).toBe(notModified + 1);
  });
});

describe("configuration", () => {
  it("the purge hook is validated at boot and off by default: without it, changes queue no purge (copies age out after s-maxage)", async () => {
    const { parseEnv } = await import("~/env.server");
    expect(parseEnv({})).toMatchObject({ CDN_SHARED_MAX_AGE_SECONDS: 60, CDN_STALE_SECONDS: 300, CDN_PURGE_AUTH_HEADER: "Authorization" });
    expect(parseEnv({}).CDN_PURGE_URL).toBeUndefined();
    expect(() => parseEnv({ CDN_PURGE_URL: "https://purge.example/hook" })).toThrow(/CDN_PURGE_TOKEN: is required when CDN_PURGE_URL is set/);
    expect(() => parseEnv({ CDN_PURGE_URL: "ftp://purge.example/hook", CDN_PURGE_TOKEN: "t" })).toThrow(/CDN_PURGE_URL/);
    expect(() => parseEnv({ CDN_SHARED_MAX_AGE_SECONDS: "-1" })).toThrow(/CDN_SHARED_MAX_AGE_SECONDS/);
    expect(() => parseEnv({ CDN_PURGE_AUTH_HEADER: "Bad Header" })).toThrow(/CDN_PURGE_AUTH_HEADER/);

    const plain = await startServer({ CDN_SHARED_MAX_AGE_SECONDS: "30", CDN_STALE_SECONDS: "0" });
    try {
      const plainApi = await apiFor(plain);
      const owner = await plainApi.anonymousUser();
      const created = await plainApi.post("/hosted/me/lists", { token: owner.accessToken, body: { name: "Ohne CDN" } });
      expect((await plainApi.put(`/hosted/lists/${created.body.token}`, { token: owner.accessToken, body: { share_public: true, name: "Umbenannt" } })).status).toBe(200);
      const res = await fetch(`${plain.url}${pagePath(created.body.token)}`, { headers: { "user-agent": BROWSER } });
      expect(res.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=30, stale-while-revalidate=0");
      const [row] = await sql<{ n: number }>(plain.databaseUrl, `SELECT COUNT(*) AS n FROM "OutboxMessage" WHERE kind = 'cdn_purge'`);
      expect(Number(row!.n)).toBe(0);
    } finally {
      await plain.stop();
    }
    // The server with the hook queued one for the same kind of change (the tests above wait for them).
    const [queued] = await sql<{ n: number }>(server.databaseUrl, `SELECT COUNT(*) AS n FROM "OutboxMessage" WHERE kind = 'cdn_purge'`);
    expect(Number(queued!.n)).toBeGreaterThan(0);
  });
});
