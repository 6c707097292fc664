// What the link-preview card looks like (`GET /api/v1/og/image/{file}`),
// checked on its pixels: rendered by the built server for lists of 0–4
// items and a 120-character name, decoded here (a small PNG reader on
// node:zlib) and written to tests/screenshots/og/ for a look. Then the same
// with STORAGE_DRIVER=s3 against a fake bucket: stored images are read from
// the bucket, bounded in size and time, and remote URLs are never fetched.
import { createHash } from "node:crypto";
import http from "node:http";
import { mkdirSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Resvg } from "@resvg/resvg-js";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api } from "../support/api.ts";
import { root, startServer, type TestServer } from "../support/server.ts";
import { headTags, newDataDir, sharedList } from "../support/shared-list.ts";

const WIDTH = 1200;
const HEIGHT = 630;
/** Link previews crop and round the card's edges: nothing may be drawn this close to one. */
const SAFE = 40;
const BACKGROUND = [0xff, 0xf7, 0xf0, 0xff]; // #fff7f0, the card's background
const SOFT_TILE = [0xf6, 0xe0, 0xd2, 0xff]; // the accent's tint: empty grid cell, no-image tile
const COLOURS = ["#0a64c8", "#2a9d4b", "#c8a20a", "#8a2ac8"];
const screenshots = path.join(root, "tests/screenshots/og");

// ---------------------------------------------------------------------------
// Pixels of a card, decoded by sharp (libvips) to raw RGBA.

interface Pixels {
  width: number;
  height: number;
  /** RGBA bytes, row by row. */
  data: Buffer;
}

async function decodePng(png: Buffer): Promise<Pixels> {
  expect(png.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

const rgba = (hex: string) => [parseInt(hex.slice(1, 3), 16), parseInt(hex.slice(3, 5), 16), parseInt(hex.slice(5, 7), 16), 0xff];
const same = (a: number[], b: number[]) => a.every((v, i) => v === b[i]);

/** Calls `visit` with each pixel's RGBA (one array, reused: copy it to keep it). */
function eachPixel(img: Pixels, visit: (px: number[], x: number, y: number) => void) {
  const px = [0, 0, 0, 0];
  for (let y = 0, i = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++, i += 4) {
      px[0] = img.data[i]!;
      px[1] = img.data[i + 1]!;
      px[2] = img.data[i + 2]!;
      px[3] = img.data[i + 3]!;
      visit(px, x, y);
    }
  }
}

/** Bounding box of the pixels for which `match` holds; null when there are none. */
function box(img: Pixels, match: (px: number[]) => boolean) {
  let left = Infinity;
  let top = Infinity;
  let right = -1;
  let bottom = -1;
  let count = 0;
  eachPixel(img, (px, x, y) => {
    if (!match(px)) return;
    count++;
    left = Math.min(left, x);
    right = Math.max(right, x);
    top = Math.min(top, y);
    bottom = Math.max(bottom, y);
  });
  return count ? { left, top, right, bottom, width: right - left + 1, height: bottom - top + 1, count } : null;
}

/** Every pixel within SAFE of an edge that is not the background, as "x,y" (at most a few). */
function marginIntruders(img: Pixels): string[] {
  const found: string[] = [];
  eachPixel(img, (px, x, y) => {
    const inMargin = x < SAFE || y < SAFE || x >= img.width - SAFE || y >= img.height - SAFE;
    if (inMargin && !same(px, BACKGROUND) && found.length < 5) found.push(`${x},${y}=${px.join(".")}`);
  });
  return found;
}

/** A product image of one colour (wider than tall, so a tile shows it cropped to fill), as a PNG. */
const productPng = (colour: string, width = 240, height = 160) =>
  new Resvg(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" height="${height}" fill="${colour}"/></svg>`)
    .render()
    .asPng();

async function cardOf(server: TestServer, token: string): Promise<{ res: Response; png: Buffer }> {
  const imageUrl = headTags(await (await fetch(`${server.baseUrl}/og/list/${token}?lang=de`)).text()).meta["og:image"]!;
  const res = await fetch(imageUrl);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("image/png");
  return { res, png: Buffer.from(await res.arrayBuffer()) };
}

function saveScreenshot(name: string, png: Buffer) {
  mkdirSync(screenshots, { recursive: true });
  writeFileSync(path.join(screenshots, `${name}.png`), png);
}

// ---------------------------------------------------------------------------

describe("the card's layout (local image store)", () => {
  let server: TestServer;
  let api: Api;
  let dataDir: string;
  let imageUrls: string[];

  beforeAll(async () => {
    dataDir = newDataDir();
    server = await startServer({ DATA_DIR: dataDir });
    api = await apiFor(server);
    // Stored as the image store would (DATA_DIR/images/<sha256>.png).
    imageUrls = COLOURS.map((colour) => {
      const png = productPng(colour);
      const name = `${createHash("sha256").update(png).digest("hex")}.png`;
      mkdirSync(path.join(dataDir, "images"), { recursive: true });
      writeFileSync(path.join(dataDir, "images", name), png);
      return `${server.url}/media/images/${name}`;
    });
  });

  afterAll(async () => {
    await server?.stop();
  });

  const LONG_NAME = "Geburtstagswünsche für Anna: Bücher, Brettspiele, ein neues Fahrrad, Kopfhörer und alles für die Reise nach Porto im Mai";

  it.each([
    ["0-items", "Annas Geburtstag", 0],
    ["1-item", "Annas Geburtstag", 1],
    ["2-items", "Annas Geburtstag", 2],
    ["3-items", "Annas Geburtstag", 3],
    ["4-items", "Annas Geburtstag", 4],
    ["long-name", LONG_NAME, 4],
  ])("%s: 1200×630, a clear margin on every side, content centred, product images in an even grid", async (name, listName, count) => {
    expect(LONG_NAME.length).toBe(120);
    const list = await sharedList(api, server.databaseUrl, {
      name: listName,
      ownerName: name === "long-name" ? "Anna-Lena Müller-Lüdenscheidt von Hohenzollern-Sigmaringen" : "Anna Müller",
      products: imageUrls.slice(0, count).map((imageUrl, i) => ({ title: `Produkt ${i + 1}`, price: 1999, currency: "EUR", imageUrl })),
    });
    const { res, png } = await cardOf(server, list.token);
    expect(res.headers.get("cache-control")).toContain("immutable"); // the list's card, not the default one
    saveScreenshot(name, png);
    const img = await decodePng(png);
    expect([img.width, img.height]).toEqual([WIDTH, HEIGHT]);

    // Nothing within SAFE px of an edge: every pixel there is the background, exactly
    // (content keeps further away than that, so not even antialiasing reaches it).
    expect(marginIntruders(img)).toEqual([]);

    // There is content, and it sits in the middle: as far from the top as from the
    // bottom and from the left as from the right (the old card sat low and ran off the right).
    const content = box(img, (px) => !same(px, BACKGROUND))!;
    expect(content.count).toBeGreaterThan(WIDTH * HEIGHT * 0.15);
    expect(Math.abs(content.top - (HEIGHT - 1 - content.bottom)), JSON.stringify(content)).toBeLessThanOrEqual(4);
    expect(Math.abs(content.left - (WIDTH - 1 - content.right)), JSON.stringify(content)).toBeLessThanOrEqual(4);

    // The list name takes two lines at most: its ink (the darkest text) spans at most two lines' height.
    const title = box(img, ([r, g, b]) => Math.max(r!, g!, b!) < 60)!;
    expect(title.height).toBeLessThanOrEqual(2 * 64 * 1.15);
    expect(title.right).toBeLessThan(WIDTH / 2); // the left column

    // Each product image fills a tile: same sizes, aligned; one large, two side by side, 2×2 from three.
    const tiles = COLOURS.slice(0, count).map((colour) => {
      const tile = rgba(colour);
      return box(img, (px) => same(px, tile))!;
    });
    expect(tiles.every(Boolean)).toBe(true);
    const sizes = new Set(tiles.map((t) => `${t.width}×${t.height}`));
    expect(sizes.size, [...sizes].join(", ")).toBeLessThanOrEqual(1);
    for (const t of tiles) expect(t.left).toBeGreaterThan(WIDTH / 2); // the right column
    const lefts = new Set(tiles.map((t) => t.left));
    const tops = new Set(tiles.map((t) => t.top));
    const soft = box(img, (px) => same(px, SOFT_TILE));
    if (count === 0) {
      expect(soft!.width).toBeGreaterThan(400); // the list's initial on a large tile
    } else if (count === 1) {
      expect(tiles[0]!.width).toBe(tiles[0]!.height);
      expect(tiles[0]!.width).toBeGreaterThan(400);
    } else if (count === 2) {
      // Two squares in a row, on a panel as large as the one-image tile.
      expect([lefts.size, tops.size]).toEqual([2, 1]);
      expect(tiles[0]!.width).toBe(tiles[0]!.height);
      expect(tiles[0]!.width).toBeGreaterThan(200);
      expect(soft!.width).toBeGreaterThan(400);
    } else {
      // A 2×2 grid of squares (the product images are wider than tall: cropped to fill, not letterboxed).
      expect([lefts.size, tops.size]).toEqual([2, 2]);
      expect(tiles[0]!.width).toBe(tiles[0]!.height);
      if (count === 3) expect(soft).not.toBeNull(); // the fourth cell stays a plain tile
    }
    // The gallery (tiles and panel) lines up with the content's edges: nothing sticks out or sits low.
    const parts = [...tiles, ...(soft ? [soft] : [])];
    expect(Math.min(...parts.map((t) => t.top)) - content.top).toBeLessThanOrEqual(2);
    expect(content.bottom - Math.max(...parts.map((t) => t.bottom))).toBeLessThanOrEqual(2);
    expect(content.right - Math.max(...parts.map((t) => t.right))).toBeLessThanOrEqual(2);
  });

  it("the default card keeps the same margins", async () => {
    const res = await fetch(`${server.baseUrl}/og/image/nothing.png`);
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    const png = Buffer.from(await res.arrayBuffer());
    saveScreenshot("default", png);
    const img = await decodePng(png);
    expect([img.width, img.height]).toEqual([WIDTH, HEIGHT]);
    expect(marginIntruders(img)).toEqual([]);
    expect(box(img, (px) => !same(px, BACKGROUND))!.count).toBeGreaterThan(WIDTH * HEIGHT * 0.15);
  });
});

// ---------------------------------------------------------------------------

describe("the card with STORAGE_DRIVER=s3", () => {
  const MiB = 1024 * 1024;
  /** The fake bucket: objects by key, every request it got, keys whose GET hangs. */
  const objects = new Map<string, Buffer>();
  const calls: string[] = [];
  const slowKeys = new Set<string>();
  /** A shop serving product images (what the image store copies from), and every path it was asked for. */
  const shopHits: string[] = [];
  const shopFiles = new Map<string, Buffer>();
  let s3: http.Server;
  let shop: http.Server;
  let shopUrl: string;
  let server: TestServer;
  let api: Api;

  beforeAll(async () => {
    s3 = http.createServer(async (req, res) => {
      const key = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname.replace(/^\/bucket\//, ""));
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      calls.push(`${req.method} ${key}`);
      if (req.method === "PUT") {
        objects.set(key, Buffer.concat(chunks));
        return res.end();
      }
      const object = objects.get(key);
      if (req.method === "GET" && object) {
        if (slowKeys.has(key)) return; // never answers
        res.setHeader("content-type", "image/png");
        res.setHeader("content-length", object.length);
        return res.end(object);
      }
      res.statusCode = 404;
      res.end("<Error><Code>NoSuchKey</Code></Error>");
    });
    shop = http.createServer((req, res) => {
      shopHits.push(req.url ?? "");
      const file = shopFiles.get(req.url ?? "");
      if (!file) {
        res.statusCode = 404;
        return res.end();
      }
      res.setHeader("content-type", "image/png");
      res.end(file);
    });
    await Promise.all([s3, shop].map((s) => new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve))));
    const shopHost = `127.0.0.1:${(shop.address() as AddressInfo).port}`;
    shopUrl = `http://${shopHost}`;
    server = await startServer({
      DATA_DIR: newDataDir(),
      STORAGE_DRIVER: "s3",
      S3_ENDPOINT: `http://127.0.0.1:${(s3.address() as AddressInfo).port}`,
      S3_BUCKET: "bucket",
      S3_ACCESS_KEY_ID: "test",
      S3_SECRET_ACCESS_KEY: "test-secret",
      S3_PUBLIC_URL: "https://cdn.example.com",
      // The image store copies product images from the test shop.
      FETCH_TEST_ALLOW_HOSTS: shopHost,
    });
    api = await apiFor(server);
  });

  afterAll(async () => {
    await server?.stop();
    for (const s of [s3, shop]) {
      s?.closeAllConnections();
      await new Promise((resolve) => s?.close(resolve));
    }
  });

  /** A public list with one product whose image the shop serves at `file`. */
  async function listWithImage(name: string, file: string) {
    return sharedList(api, server.databaseUrl, {
      name,
      ownerName: "Anna Müller",
      products: [{ title: "Brettspiel", price: 3999, currency: "EUR", imageUrl: `${shopUrl}${file}` }],
    });
  }

  const keyOf = (png: Buffer) => `images/${createHash("sha256").update(png).digest("hex")}.png`;

  it("a product image stored in the bucket is read from there and drawn on the card", async () => {
    const product = productPng(COLOURS[0]!, 200, 200);
    shopFiles.set("/board-game.png", product);
    const list = await listWithImage("Annas Geburtstag", "/board-game.png");
    // Saving copied it into the bucket; the list shows it from the bucket's public URL.
    expect(objects.get(keyOf(product))?.equals(product)).toBe(true);
    const items = await fetch(`${server.baseUrl}/hosted/public/lists/${list.token}/items`).then((r) => r.json());
    expect(JSON.stringify(items)).toContain(`https://cdn.example.com/${keyOf(product)}`);

    const { res, png } = await cardOf(server, list.token);
    expect(res.headers.get("cache-control")).toContain("immutable");
    saveScreenshot("s3-1-item", png);
    const img = await decodePng(png);
    expect(marginIntruders(img)).toEqual([]);
    const first = rgba(COLOURS[0]!);
    const tile = box(img, (px) => same(px, first));
    expect(tile, "the product image is on the card").not.toBeNull();
    expect(tile!.width).toBeGreaterThan(400);
    expect(tile!.left).toBeGreaterThan(WIDTH / 2);
    expect(calls).toContain(`GET ${keyOf(product)}`);
  });

  it("an image over 5 MB in the bucket is left out; a remote image URL is never fetched", async () => {
    // Passes the image store's checks (PNG signature, under its 10 MB), over the card's 5 MB.
    const huge = Buffer.concat([productPng("#000000", 8, 8), Buffer.alloc(6 * MiB)]);
    shopFiles.set("/huge.png", huge);
    const big = await listWithImage("Große Liste", "/huge.png");
    expect(objects.has(keyOf(huge))).toBe(true);
    // The shop refuses the copy: the item keeps the shop's URL, which a card must not fetch.
    const remote = await listWithImage("Fremde Bilder", "/gone.png");
    const hitsBefore = shopHits.length;

    for (const [list, name] of [[big, "s3-too-large"], [remote, "s3-remote-url"]] as const) {
      const { res, png } = await cardOf(server, list.token);
      expect(res.headers.get("cache-control")).toContain("immutable");
      saveScreenshot(name, png);
      const img = await decodePng(png);
      expect(marginIntruders(img)).toEqual([]);
      // No product image: the tile with the list's initial.
      expect(box(img, (px) => same(px, SOFT_TILE))!.width).toBeGreaterThan(400);
    }
    expect(shopHits.slice(hitsBefore)).toEqual([]);
    expect(server.output()).toContain('"msg":"preview image over the size limit"');
  });

  it("a bucket that does not answer in time: the default card with a short cache, so the list's card is tried again later", async () => {
    const product = productPng(COLOURS[1]!, 200, 200);
    shopFiles.set("/slow.png", product);
    const list = await listWithImage("Langsame Liste", "/slow.png");
    slowKeys.add(keyOf(product));
    const started = performance.now();
    const { res, png } = await cardOf(server, list.token);
    const ms = performance.now() - started;
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(ms).toBeLessThan(9_000);
    expect((await decodePng(png)).width).toBe(WIDTH);
    expect(server.output()).toContain('"msg":"preview not rendered"');
  });
});
