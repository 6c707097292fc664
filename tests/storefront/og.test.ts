// Link previews (SPEC 4.4): `GET /api/v1/og/list/{token}` and
// `GET /api/v1/og/image/{file}` against the built server, the share page
// carrying the same tags, and the preview document in real Chromium.
import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api } from "../support/api.ts";
import { launchBrowser, watchConsole } from "../support/browser.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { headTags, newDataDir, pngSize, sharedList, storeProductImage, type SharedList } from "../support/shared-list.ts";

let server: TestServer;
let api: Api;
let dataDir: string;
let browser: Browser;
let list: SharedList;
let productColour: string;

beforeAll(async () => {
  dataDir = newDataDir();
  server = await startServer({ DATA_DIR: dataDir });
  api = await apiFor(server);
  browser = await launchBrowser();
  productColour = "#0a64c8";
  const image = storeProductImage(server, dataDir, productColour);
  list = await sharedList(api, server.databaseUrl, {
    name: "Annas Geburtstag",
    description: "Bücher & Spiele <3",
    ownerName: "Anna Müller",
    occasion: "birthday",
    products: [{ title: "Brettspiel", price: 3999, currency: "EUR", priority: 2, imageUrl: image }],
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const ogList = (token: string, query = "") => fetch(`${server.baseUrl}/og/list/${token}${query}`);

describe("GET /og/list/{token}", () => {
  it.each([
    ["de", "de_DE", "Wunschliste von Anna Müller · 1 Wunsch"],
    ["en", "en_US", "A wishlist by Anna Müller · 1 wish"],
  ])("lang=%s: every SPEC 4.4 tag with absolute URLs, canonical share URL, redirect for people", async (lang, locale, summary) => {
    const res = await ogList(list.token, `?lang=${lang}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("referrer-policy")).toBe("no-referrer"); // the address carries the share token
    const html = await res.text();
    const { meta, canonical, alternates } = headTags(html);
    const shareUrl = `${server.url}/${lang}/list/${list.token}`;
    expect(canonical).toBe(shareUrl);
    expect(alternates).toEqual({
      de: `${server.url}/de/list/${list.token}`,
      en: `${server.url}/en/list/${list.token}`,
      "x-default": `${server.url}/en/list/${list.token}`,
    });
    expect(meta["og:title"]).toBe("Annas Geburtstag");
    expect(meta["og:description"]).toBe(`${summary}. Bücher & Spiele <3`);
    expect(meta["og:url"]).toBe(shareUrl);
    expect(meta["og:type"]).toBe("website");
    expect(meta["og:site_name"]).toBe(lang === "de" ? "Wunschliste" : "Wishlist");
    expect(meta["og:locale"]).toBe(locale);
    expect(meta["og:image"]).toMatch(new RegExp(`^${server.url}/api/v1/og/image/[0-9a-f]{64}\\.png$`));
    expect(meta["og:image:width"]).toBe("1200");
    expect(meta["og:image:height"]).toBe("630");
    expect(meta["twitter:card"]).toBe("summary_large_image");
    expect(meta["twitter:title"]).toBe(meta["og:title"]);
    expect(meta["twitter:description"]).toBe(meta["og:description"]);
    expect(meta["twitter:image"]).toBe(meta["og:image"]);
    expect(meta.refresh).toBeUndefined(); // http-equiv, not name
    expect(html).toContain(`<meta http-equiv="refresh" content="0; url=${shareUrl}">`);
    // The one inline script is allowed by its hash, nothing else inline is.
    const script = html.match(/<script>([^<]*)<\/script>/)![1]!;
    expect(script).toContain("location.replace");
    const hash = createHash("sha256").update(script).digest("base64");
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(new RegExp(`script-src 'self' 'sha256-${hash.replace(/[+/]/g, "\\$&")}'`));
    expect(csp.split("; ").find((d) => d.startsWith("script-src"))).not.toContain("unsafe-inline");
  });

  it("without lang the preview is English; another lang is 400 invalid_input", async () => {
    const plain = headTags(await (await ogList(list.token)).text()).meta;
    expect(plain["og:locale"]).toBe("en_US");
    const bad = await ogList(list.token, "?lang=fr");
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe("invalid_input");
  });

  it("private and unknown lists: 404 not_found with nothing about the list", async () => {
    const hidden = await sharedList(api, server.databaseUrl, {
      name: "Geheime Liste",
      ownerName: "Berta Geheim",
      products: [{ title: "Verborgenes Ding", price: 100, currency: "EUR" }],
      makePublic: false,
    });
    for (const token of [hidden.token, "unknownTokenAAAAAAAAAAAA"]) {
      const res = await ogList(token, "?lang=de");
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      const text = await res.text();
      expect(JSON.parse(text).error).toBe("not_found");
      for (const secret of ["Geheime", "Berta", "Verborgenes", "og:"]) expect(text).not.toContain(secret);
    }
  });

  it("the share page carries exactly the same Open Graph and Twitter tags", async () => {
    for (const lang of ["de", "en"]) {
      const preview = headTags(await (await ogList(list.token, `?lang=${lang}`)).text());
      const page = await fetch(`${server.url}/${lang}/list/${list.token}`, { headers: { "user-agent": "facebookexternalhit/1.1" } });
      expect(page.status).toBe(200);
      const tags = headTags(await page.text());
      const social = (m: Record<string, string>) => Object.fromEntries(Object.entries(m).filter(([k]) => /^(og|twitter):/.test(k)));
      expect(Object.keys(social(preview.meta)).length).toBe(16);
      expect(social(tags.meta)).toEqual(social(preview.meta));
      expect(tags.canonical).toBe(preview.canonical);
      expect(tags.alternates).toEqual(preview.alternates);
    }
  });

  it("a person opening the preview URL lands on the share page; the inline script runs under the CSP (no console errors)", async () => {
    const context = await browser.newContext();
    const console = watchConsole(context);
    const page = await context.newPage();
    page.on("response", (r) => r.status() >= 400 && console.errors.push(`${r.status()} ${r.url()}`));
    await page.goto(`${server.baseUrl}/og/list/${list.token}?lang=de`);
    await page.waitForURL(`${server.url}/de/list/${list.token}`);
    await expect(page.locator("h1").textContent()).resolves.toBe("Annas Geburtstag");
    expect(console.errors).toEqual([]);
    await context.close();
  });
});

describe("GET /og/image/{file}", () => {
  it("the list's card: a 1200×630 PNG showing the stored product image, cached forever, rendered once", async () => {
    const imageUrl = headTags(await (await ogList(list.token, "?lang=de")).text()).meta["og:image"]!;
    const started = performance.now();
    const first = await fetch(imageUrl);
    const firstMs = performance.now() - started;
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("image/png");
    expect(first.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const bytes = new Uint8Array(await first.arrayBuffer());
    expect(pngSize(bytes)).toEqual({ width: 1200, height: 630 });
    const etag = first.headers.get("etag");
    expect(etag).toBe(`"${path.basename(imageUrl, ".png")}"`);

    const again = performance.now();
    const second = await fetch(imageUrl);
    const secondMs = performance.now() - again;
    expect(Buffer.from(await second.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
    expect((await fetch(imageUrl, { headers: { "if-none-match": etag! } })).status).toBe(304);
    // Stored under DATA_DIR/og by its name; the server rendered it once.
    expect(readdirSync(path.join(dataDir, "og"))).toContain(path.basename(imageUrl));
    expect(server.output().match(/"msg":"preview rendered"/g)?.length).toBe(1);
    const renderMs = server.output().match(/"msg":"preview rendered","ms":(\d+)/)?.[1];
    console.log(`og image: first request ${firstMs.toFixed(0)} ms (render in the worker ${renderMs} ms, worker start included), cached ${secondMs.toFixed(1)} ms, ${bytes.length} bytes`);

    // The product image (a solid square from the image store) is drawn in the card's right half.
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/en/list/${list.token}`);
    const pixel = await page.evaluate(async (src) => {
      const bitmap = await createImageBitmap(await (await fetch(src)).blob());
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const ctx = canvas.getContext("2d")!;
      ctx.drawImage(bitmap, 0, 0);
      return Array.from(ctx.getImageData(910, 315, 1, 1).data);
    }, imageUrl.replace(server.url, ""));
    expect(pixel.slice(0, 3)).toEqual([0x0a, 0x64, 0xc8]);
    await context.close();
  });

  it("the card's name follows the list's content", async () => {
    const before = headTags(await (await ogList(list.token, "?lang=en")).text()).meta["og:image"];
    const renamed = await api.put(`/hosted/lists/${list.token}`, { token: list.owner.accessToken, body: { name: "Annas 40. Geburtstag" } });
    expect(renamed.status).toBe(200);
    const after = headTags(await (await ogList(list.token, "?lang=en")).text()).meta["og:image"];
    expect(after).not.toBe(before);
    const res = await fetch(after!);
    expect(res.headers.get("cache-control")).toContain("immutable");
    const renders = [...server.output().matchAll(/"msg":"preview rendered","ms":(\d+)/g)].map((m) => m[1]);
    console.log(`og image renders (ms): ${renders.join(", ")}`);
    expect(pngSize(new Uint8Array(await res.arrayBuffer()))).toEqual({ width: 1200, height: 630 });
  });

  it("unknown and malformed names get the default card (200, short cache)", async () => {
    for (const file of [`${"ab".repeat(32)}.png`, "nothing.png", "..%2F..%2Fetc%2Fpasswd", "x".repeat(300)]) {
      const res = await fetch(`${server.baseUrl}/og/image/${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
      expect(res.headers.get("cache-control")).toBe("public, max-age=300");
      expect(pngSize(new Uint8Array(await res.arrayBuffer()))).toEqual({ width: 1200, height: 630 });
    }
  });
});
