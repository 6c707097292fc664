// Retailer-list import (SPEC 7.6): public list pages served by a local
// fixture server (FETCH_TEST_ALLOW_HOSTS) in the generic JSON-LD form and the
// Amazon list markup form; re-sync adds only new items; every import code.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api } from "../support/api.ts";
import { startInProcess, type InProcessServer } from "../support/in-process.ts";
import { failWrites, sql } from "../support/sql.ts";
import { expectAllDocumented, expectError, fixtureServer } from "../support/fixtures.ts";

let shop: Awaited<ReturnType<typeof fixtureServer>>;
let server: InProcessServer;
let api: Api;
let S = "";

const html = (body: string) => (_req: unknown, res: any) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body);

function jsonLdList(products: Array<{ path: string; name: string; price?: string }>) {
  const list = {
    "@context": "https://schema.org",
    "@graph": [
      { "@type": "WebPage", name: "My wishlist" },
      {
        "@type": "ItemList",
        itemListElement: products.map((p, i) => ({
          "@type": "ListItem",
          position: i + 1,
          item: { "@type": "Product", name: p.name, url: p.path, offers: p.price ? { "@type": "Offer", price: p.price, priceCurrency: "EUR" } : undefined },
        })),
      },
    ],
  };
  return `<!doctype html><html><head><script type="application/ld+json">${JSON.stringify(list)}</script></head><body><h1>List</h1></body></html>`;
}

/** Modelled on an Amazon wishlist page: one `li[data-itemid]` per item, `a#itemName_…` to /dp/<ASIN>, price spans. */
function amazonPage(items: Array<{ id: string; asin: string; title: string; price?: string }>) {
  const li = items
    .map(
      (it) => `
    <li data-id="ABCDEF1234" data-itemid="${it.id}" data-price="${it.price ?? "-Infinity"}" class="a-spacing-none g-item-sortable">
      <div id="itemImage_${it.id}" class="a-section"><a href="/dp/${it.asin}/?coliid=${it.id}&amp;ref_=lv_ov_lig_dp_it"><img alt="${it.title}" src="/img/${it.asin}.jpg"></a></div>
      <h2 class="a-size-base"><a id="itemName_${it.id}" class="a-link-normal" title="${it.title}" href="/dp/${it.asin}/?coliid=${it.id}&amp;ref_=lv_ov_lig_dp_it">${it.title}</a></h2>
      ${it.price ? `<span id="itemPrice_${it.id}" class="a-price" data-a-size="m"><span class="a-offscreen">$${it.price}</span><span aria-hidden="true"><span class="a-price-symbol">$</span><span class="a-price-whole">${it.price.split(".")[0]}</span></span></span>` : ""}
    </li>`,
    )
    .join("");
  return `<!doctype html><html><body><div id="wishlist-page"><ul id="g-items" class="a-unordered-list">${li}</ul></div></body></html>`;
}

const amazonItems = [
  { id: "I1AAAAAAAAAAA", asin: "B000000001", title: "Noise &amp; Cancelling Headphones", price: "199.99" },
  { id: "I2BBBBBBBBBBB", asin: "B000000002", title: "Paperback Novel" },
];
let amazonPageItems = amazonItems;
let flakyUp = true;

beforeAll(async () => {
  shop = await fixtureServer({
    "/lists/generic": html(
      jsonLdList([
        { path: "/p/mug", name: "Ceramic Mug", price: "19.99" },
        { path: "/p/lamp?utm_source=list", name: "Desk Lamp", price: "45" },
        { path: "/p/book", name: "Cook Book" },
      ]),
    ),
    "/hz/wishlist/ls/ABCDEF1234": (req, res) => html(amazonPage(amazonPageItems))(req, res),
    "/flaky": (req, res) =>
      flakyUp ? html(jsonLdList([{ path: "/p/flaky", name: "Flaky thing" }]))(req, res) : res.writeHead(500, { "content-type": "text/html" }).end("oops"),
    "/lists/fails-to-store": html(jsonLdList([{ path: "/p/never", name: "Never stored" }])),
    "/not-a-list": html("<!doctype html><html><head><title>Blog</title></head><body><p>Hello</p></body></html>"),
    "/broken": (_req, res) => res.writeHead(500, { "content-type": "text/html" }).end("oops"),
    "/data.json": (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("{}"),
  });
  S = shop.origin;
  server = await startInProcess({ FETCH_TEST_ALLOW_HOSTS: shop.hostPort });
  api = await apiFor(server);
});

afterAll(async () => {
  if (server) expectAllDocumented(server.output());
  await server?.stop();
  await shop?.close();
});

type User = Awaited<ReturnType<Api["anonymousUser"]>>;

async function newList(user: User, name = "Imported") {
  const res = await api.post("/hosted/me/lists", { token: user.accessToken, body: { name } });
  expect(res.status, res.text).toBe(200);
  return { token: res.body.token as string, dbId: res.body.list.db_id as number };
}

const importList = (user: User, body: unknown) => api.post("/imports", { token: user.accessToken, body });

async function itemsOf(user: User, token: string) {
  const res = await api.get(`/hosted/lists/${token}/items`, { token: user.accessToken });
  expect(res.status, res.text).toBe(200);
  return res.body.products as Array<{ title: string; price_minor: number | null; currency: string | null; affiliateUrl: string }>;
}

describe("POST /imports", () => {
  it("imports a generic JSON-LD ItemList into the caller's list (by share token)", async () => {
    const user = await api.anonymousUser();
    const list = await newList(user);
    const res = await importList(user, { listUrl: `${S}/lists/generic`, wishlistToken: list.token });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      added: 3,
      skipped: 0,
      import: {
        id: expect.any(Number),
        wishlist_id: list.token,
        wishlist_db_id: list.dbId,
        source_url: `${S}/lists/generic`,
        provider: "generic",
        external_list_id: null,
        status: "synced",
        item_count: 3,
        last_synced_at: expect.any(String),
        error: null,
      },
    });
    const items = await itemsOf(user, list.token);
    expect(items.map((i) => [i.title, i.price_minor, i.currency]).sort()).toEqual([
      ["Ceramic Mug", 1999, "EUR"],
      ["Cook Book", null, null],
      ["Desk Lamp", 4500, "EUR"],
    ]);
  });

  it("imports the Amazon list form (by targetListId) and re-syncs without duplicates", async () => {
    const user = await api.anonymousUser();
    const list = await newList(user);
    amazonPageItems = amazonItems;
    const res = await importList(user, { listUrl: `${S}/hz/wishlist/ls/ABCDEF1234?ref_=wl_share`, targetListId: list.dbId });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ added: 2, import: { provider: "amazon", external_list_id: "ABCDEF1234", item_count: 2 } });
    let items = await itemsOf(user, list.token);
    expect(items.map((i) => [i.title, i.price_minor, i.currency]).sort()).toEqual([
      ["Noise & Cancelling Headphones", 19999, "USD"],
      ["Paperback Novel", null, null],
    ]);
    expect(items.map((i) => i.affiliateUrl).sort()).toEqual([`${S}/dp/B000000001`, `${S}/dp/B000000002`]);

    // The list grew by one on the retailer's side: the sync adds only that one.
    amazonPageItems = [...amazonItems, { id: "I3CCCCCCCCCCC", asin: "B000000003", title: "Board Game", price: "30.00" }];
    const id = res.body.import.id;
    const sync = await api.post(`/imports/${id}/sync`, { token: user.accessToken });
    expect(sync.status, sync.text).toBe(200);
    expect(sync.body).toMatchObject({ added: 1, skipped: 2, import: { id, item_count: 3, status: "synced" } });
    items = await itemsOf(user, list.token);
    expect(items.map((i) => i.title).sort()).toEqual(["Board Game", "Noise & Cancelling Headphones", "Paperback Novel"]);
    // The body form of the sync; nothing new.
    const again = await api.post("/imports/sync", { token: user.accessToken, body: { id } });
    expect(again.body).toMatchObject({ added: 0, skipped: 3 });
    expect(await itemsOf(user, list.token)).toHaveLength(3);
    expectError(await api.post("/imports/sync", { token: user.accessToken, body: {} }), 400, "missing_id");
    expectError(await api.post("/imports/sync", { token: user.accessToken, body: { id: "abc" } }), 400, "missing_id");
  });

  it("400 codes of the request: missing_list_url, invalid_list_url, missing_amazon_list_id, no_target_wishlist", async () => {
    const user = await api.anonymousUser();
    const list = await newList(user);
    const token = list.token;
    expectError(await importList(user, { wishlistToken: token }), 400, "missing_list_url");
    expectError(await importList(user, { listUrl: "  ", wishlistToken: token }), 400, "missing_list_url");
    expectError(await importList(user, { listUrl: 42, wishlistToken: token }), 400, "invalid_list_url");
    for (const url of ["not a url", "ftp://example.com/list", "javascript:alert(1)", "http://user:pw@example.com/list"]) {
      expectError(await importList(user, { listUrl: url, wishlistToken: token }), 400, "invalid_list_url");
    }
    // Fetched, but no list: a page without one, a 404, a JSON document, a private address.
    for (const url of [`${S}/not-a-list`, `${S}/nothing-here`, `${S}/data.json`, "http://10.0.0.1/list"]) {
      expectError(await importList(user, { listUrl: url, wishlistToken: token }), 400, "invalid_list_url");
    }
    for (const url of ["https://www.amazon.com/dp/B000000001", "https://www.amazon.de/hz/wishlist/intro", "https://amazon.co.uk/registry/wishlist/"]) {
      expectError(await importList(user, { listUrl: url, wishlistToken: token }), 400, "missing_amazon_list_id");
    }
    expectError(await importList(user, { listUrl: `${S}/lists/generic` }), 400, "no_target_wishlist");
    expectError(await importList(user, { listUrl: `${S}/lists/generic`, wishlistToken: "no-such-list" }), 400, "no_target_wishlist");
    expectError(await importList(user, { listUrl: `${S}/lists/generic`, wishlistToken: "" }), 400, "no_target_wishlist");
    expectError(await importList(user, { listUrl: `${S}/lists/generic`, targetListId: 987654321 }), 400, "no_target_wishlist");
    expectError(await importList(user, { listUrl: `${S}/lists/generic`, targetListId: "x" }), 400, "no_target_wishlist");
    expect((await api.get("/imports", { token: user.accessToken })).body.imports).toEqual([]);
  });

  it("403 wishlist_not_owned for another user's list; 401 without a token", async () => {
    const owner = await api.anonymousUser();
    const other = await api.anonymousUser();
    const list = await newList(owner);
    expectError(await importList(other, { listUrl: `${S}/lists/generic`, wishlistToken: list.token }), 403, "wishlist_not_owned");
    expectError(await importList(other, { listUrl: `${S}/lists/generic`, targetListId: list.dbId }), 403, "wishlist_not_owned");
    expect(await itemsOf(owner, list.token)).toEqual([]);
    expectError(await api.post("/imports", { body: { listUrl: `${S}/lists/generic`, wishlistToken: list.token } }), 401, "unauthorized");
  });

  it("500 create_failed when the site fails, or the import cannot be stored", async () => {
    const user = await api.anonymousUser();
    const list = await newList(user);
    expectError(await importList(user, { listUrl: `${S}/broken`, wishlistToken: list.token }), 500, "create_failed");
    // (No `?` in the value: the PostgreSQL helper reads `?` as a placeholder.)
    const url = `${S}/lists/fails-to-store`;
    await failWrites(server.databaseUrl, "ListImport", "INSERT", "sourceUrl", url);
    expectError(await importList(user, { listUrl: url, wishlistToken: list.token }), 500, "create_failed");
    expect((await api.get("/imports", { token: user.accessToken })).body.imports).toEqual([]);
  });
});

describe("GET, sync and DELETE /imports/{id}", () => {
  it("lists and reads the caller's imports; another user's are 404 not_found", async () => {
    const user = await api.anonymousUser();
    const other = await api.anonymousUser();
    const list = await newList(user);
    const created = await importList(user, { listUrl: `${S}/lists/generic`, wishlistToken: list.token });
    const id = created.body.import.id;
    const all = await api.get("/imports", { token: user.accessToken });
    expect(all.status).toBe(200);
    expect(all.body.imports).toEqual([created.body.import]);
    const one = await api.get(`/imports/${id}`, { token: user.accessToken });
    expect(one.body).toEqual({ import: created.body.import });

    expect((await api.get("/imports", { token: other.accessToken })).body.imports).toEqual([]);
    expectError(await api.get(`/imports/${id}`, { token: other.accessToken }), 404, "not_found");
    expectError(await api.post(`/imports/${id}/sync`, { token: other.accessToken }), 404, "not_found");
    expectError(await api.post("/imports/sync", { token: other.accessToken, body: { id } }), 404, "not_found");
    expectError(await api.delete(`/imports/${id}`, { token: other.accessToken }), 404, "not_found");
    expectError(await api.get(`/imports/abc`, { token: user.accessToken }), 404, "not_found");
    expectError(await api.get(`/imports/987654321`, { token: user.accessToken }), 404, "not_found");

    const del = await api.delete(`/imports/${id}`, { token: user.accessToken });
    expect(del.status, del.text).toBe(200);
    expect(del.body).toEqual({ ok: true, id });
    expectError(await api.get(`/imports/${id}`, { token: user.accessToken }), 404, "not_found");
    // The items stay in the list.
    expect(await itemsOf(user, list.token)).toHaveLength(3);
  });

  it("500 sync_failed when the page cannot be fetched again; the import records it", async () => {
    const user = await api.anonymousUser();
    const list = await newList(user);
    flakyUp = true;
    const created = await importList(user, { listUrl: `${S}/flaky`, wishlistToken: list.token });
    expect(created.status, created.text).toBe(201);
    flakyUp = false;
    const id = created.body.import.id;
    expectError(await api.post(`/imports/${id}/sync`, { token: user.accessToken }), 500, "sync_failed");
    const after = await api.get(`/imports/${id}`, { token: user.accessToken });
    expect(after.body.import).toMatchObject({ status: "failed", error: expect.stringContaining("500"), item_count: 1 });
    flakyUp = true;
    const healed = await api.post(`/imports/${id}/sync`, { token: user.accessToken });
    expect(healed.body).toMatchObject({ added: 0, skipped: 1, import: { status: "synced", error: null } });
  });

  it("500 internal for an unexpected failure", async () => {
    const user = await api.anonymousUser();
    const list = await newList(user);
    const created = await importList(user, { listUrl: `${S}/lists/generic`, wishlistToken: list.token });
    const id = created.body.import.id;
    await failWrites(server.databaseUrl, "ListImport", "DELETE", "id", String(id));
    expectError(await api.delete(`/imports/${id}`, { token: user.accessToken }), 500, "internal");
    const rows = await sql(server.databaseUrl, `SELECT id FROM "ListImport" WHERE id = ?`, [id]);
    expect(rows).toHaveLength(1);
  });
});
