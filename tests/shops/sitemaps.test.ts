// Sitemaps (SPEC 4.8 Sitemaps, docs/api.md "Shops"): /sitemap-pages.xml (public
// share pages), /sitemap-shops.xml (published shop pages) and the JSON twin
// /sitemap-shops.json, checked by parsing against the sitemap protocol's
// rules, with a per-file limit of 3 (SITEMAP_URLS_PER_FILE) so the index
// form is reached with a few rows.
import { randomBytes } from "node:crypto";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { provisioner } from "../support/provision.ts";
import { startServer, type TestServer } from "../support/server.ts";

const PER_FILE = 3;
const NS = "http://www.sitemaps.org/schemas/sitemap/0.9";
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let server: TestServer;
let db: Awaited<typeof import("~/db.server")>["db"];
let shops: typeof import("~/domains/shops/shops.server");
let partnerId: number;
let ownerId: string;

beforeAll(async () => {
  server = await startServer({ SITEMAP_URLS_PER_FILE: String(PER_FILE) });
  const provision = await provisioner(server);
  ({ db } = await import("~/db.server"));
  shops = await import("~/domains/shops/shops.server");
  partnerId = (await provision.partner()).id;
  ownerId = `user-${rand()}`;
  await db.user.create({ data: { id: ownerId, isAnonymous: true } });
});

afterAll(async () => {
  await server?.stop();
});

const rand = () => randomBytes(4).toString("hex");
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", isArray: (name) => ["url", "sitemap", "xhtml:link"].includes(name) });

async function getXml(path: string) {
  const res = await fetch(server.url + path);
  const text = await res.text();
  expect(res.status, text).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/xml/);
  // Streamed: written as rows are read, so no length is known up front.
  expect(res.headers.get("content-length")).toBeNull();
  expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  return parser.parse(text);
}

/** A <urlset> file: the namespace, ≤ PER_FILE absolute locs, each with an ISO lastmod. */
function urlsOf(doc: any): any[] {
  expect(doc.urlset, JSON.stringify(doc)).toBeDefined();
  expect(doc.urlset["@xmlns"]).toBe(NS);
  const urls = doc.urlset.url ?? [];
  expect(urls.length).toBeLessThanOrEqual(PER_FILE);
  for (const url of urls) {
    expect(url.loc.startsWith(server.url + "/")).toBe(true);
    expect(url.lastmod).toMatch(ISO);
  }
  return urls;
}

/** The index of a sitemap: `?page=N` files under the same address. */
function indexOf(doc: any, path: string): string[] {
  expect(doc.sitemapindex, JSON.stringify(doc)).toBeDefined();
  expect(doc.sitemapindex["@xmlns"]).toBe(NS);
  const locs = doc.sitemapindex.sitemap.map((s: any) => {
    expect(s.lastmod).toMatch(ISO);
    return s.loc as string;
  });
  expect(locs).toEqual(locs.map((_: string, i: number) => `${server.url}${path}?page=${i + 1}`));
  return locs;
}

async function publishedShop(published = true) {
  return shops.createPlatformShop(partnerId, { domain: `m${rand()}.myshopify.com`, name: `Map ${rand()}`, published });
}

async function publicList(sharePublic = true) {
  return db.wishlist.create({ data: { shareToken: `tok_${rand()}${rand()}`, ownerId, name: "L", sharePublic } });
}

describe("/sitemap-shops.xml and /sitemap-shops.json", () => {
  it("lists published shops only; over the per-file limit it becomes an index of ?page=N files", async () => {
    const empty = urlsOf(await getXml("/sitemap-shops.xml"));
    expect(empty).toEqual([]);
    const emptyJson = await (await fetch(`${server.url}/sitemap-shops.json`)).json();
    expect(emptyJson).toEqual({ shops: [] });

    const shown = [await publishedShop(), await publishedShop()];
    await publishedShop(false);
    const uninstalled = await publishedShop();
    await db.platformShop.update({ where: { id: uninstalled.id }, data: { active: false } });

    const small = urlsOf(await getXml("/sitemap-shops.xml"));
    expect(small.map((u) => u.loc)).toEqual(shown.map((s) => `${server.url}/shops/${s.handle}`));

    for (let i = 0; i < 5; i++) shown.push(await publishedShop());
    const locs = indexOf(await getXml("/sitemap-shops.xml"), "/sitemap-shops.xml");
    expect(locs).toHaveLength(3);
    const all: string[] = [];
    for (const loc of locs) {
      const urls = urlsOf(await getXml(loc.slice(server.url.length)));
      all.push(...urls.map((u) => u.loc));
    }
    expect(all).toEqual(shown.map((s) => `${server.url}/shops/${s.handle}`));

    for (const page of ["4", "0", "abc", "-1"]) {
      const res = await fetch(`${server.url}/sitemap-shops.xml?page=${page}`);
      expect(res.status).toBe(404);
      expect((await res.json()).error).toBe("not_found");
    }

    // The JSON twin: the same files, with `next` to the following one.
    const json: any[] = [];
    let next: string | undefined = `${server.url}/sitemap-shops.json`;
    let files = 0;
    while (next) {
      const res: Response = await fetch(next);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      const body: any = await res.json();
      expect(body.shops.length).toBeLessThanOrEqual(PER_FILE);
      json.push(...body.shops);
      next = body.next;
      files++;
    }
    expect(files).toBe(3);
    expect(json).toEqual(
      shown.map((s) => ({ handle: s.handle, name: s.name, url: `${server.url}/shops/${s.handle}`, lastmod: expect.stringMatching(ISO) })),
    );
    expect((await fetch(`${server.url}/sitemap-shops.json?page=9`)).status).toBe(404);
  });
});

describe("/sitemap-pages.xml", () => {
  it("lists public share pages (English page, German alternate) and pages by the index rules", async () => {
    const shown = [await publicList(), await publicList()];
    await publicList(false);
    const urls = urlsOf(await getXml("/sitemap-pages.xml"));
    expect(urls.map((u) => u.loc)).toEqual(shown.map((l) => `${server.url}/en/list/${l.shareToken}`));
    expect(urls[0]["xhtml:link"].map((l: any) => [l["@hreflang"], l["@href"]])).toEqual([
      ["en", `${server.url}/en/list/${shown[0]!.shareToken}`],
      ["de", `${server.url}/de/list/${shown[0]!.shareToken}`],
    ]);

    for (let i = 0; i < 2; i++) shown.push(await publicList());
    const locs = indexOf(await getXml("/sitemap-pages.xml"), "/sitemap-pages.xml");
    expect(locs).toHaveLength(2);
    const all: string[] = [];
    for (const loc of locs) all.push(...urlsOf(await getXml(loc.slice(server.url.length))).map((u) => u.loc));
    expect(all).toEqual(shown.map((l) => `${server.url}/en/list/${l.shareToken}`));
    expect((await fetch(`${server.url}/sitemap-pages.xml?page=3`)).status).toBe(404);
  });

  it("escapes XML special characters", async () => {
    const { xmlEscape } = await import("~/domains/sitemaps/sitemaps.server");
    expect(xmlEscape(`a&b<c>d"e'f`)).toBe("a&amp;b&lt;c&gt;d&quot;e&apos;f");
  });
});

describe("under {base_url} (SPEC 4.8) and at the site root", () => {
  // Framing and per-response headers (a small error body may be framed by length on one path, chunked on the other); everything else must be the same.
  const TRANSPORT = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length"]);
  const headersOf = (res: Response) => [...res.headers].filter(([name]) => !TRANSPORT.has(name)).sort(([a], [b]) => a.localeCompare(b));

  it("/api/v1/sitemap-* answer the same documents with the same headers as the root, nosniff and Referrer-Policy included", async () => {
    await publicList();
    for (const path of ["/sitemap-pages.xml", "/sitemap-pages.xml?page=2", "/sitemap-shops.xml", "/sitemap-shops.xml?page=1", "/sitemap-shops.json", "/sitemap-shops.json?page=2", "/sitemap-pages.xml?page=99", "/sitemap-shops.json?page=x"]) {
      const [atRoot, underBase] = await Promise.all([fetch(server.url + path), fetch(server.baseUrl + path)]);
      const [rootText, baseText] = await Promise.all([atRoot.text(), underBase.text()]);
      expect(underBase.status, path).toBe(atRoot.status);
      expect(baseText, path).toBe(rootText);
      expect(headersOf(underBase), path).toEqual(headersOf(atRoot));
      expect(atRoot.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(atRoot.headers.get("referrer-policy"), path).toBe("strict-origin-when-cross-origin");
    }
    expect((await fetch(server.baseUrl + "/sitemap-pages.xml?page=99")).status).toBe(404);
  });

  it("the OpenAPI document lists them", async () => {
    const doc = await (await fetch(`${server.baseUrl}/openapi.json`)).json();
    expect(Object.keys(doc.paths["/sitemap-pages.xml"])).toEqual(["get"]);
    expect(doc.paths["/sitemap-pages.xml"].get.responses["200"].content).toHaveProperty(["application/xml"]);
    expect(doc.paths["/sitemap-shops.xml"].get.responses["200"].content).toHaveProperty(["application/xml"]);
    expect(doc.paths["/sitemap-shops.json"].get.responses["200"].content).toHaveProperty(["application/json"]);
  });
});
