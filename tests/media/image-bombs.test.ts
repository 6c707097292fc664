// Decompression bombs: a PNG of 12,000 × 12,000 pixels in about 420 KB (432
// MB as a bitmap) and large but honest images, through everything that takes
// images in. Product images saved from a shop (the copy is refused or scaled
// down to IMAGE_MAX_SIDE), the link-preview card of a list whose stored
// copies predate those bounds (bombs left off, large images drawn at tile
// size, the server's peak memory measured), and creator media uploads.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api } from "../support/api.ts";
import { flatPng, pngSize, resetPeakRss, rssMb } from "../support/images.ts";
import { provisioner } from "../support/provision.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { headTags, newDataDir, sharedList } from "../support/shared-list.ts";

const BOMB_SIDE = 12_000;
const MAX_SIDE = 1600; // IMAGE_MAX_SIDE's default
const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

let bomb: Buffer;
let otherBomb: Buffer;

beforeAll(async () => {
  bomb = await flatPng(BOMB_SIDE, BOMB_SIDE, [0, 0, 0]);
  otherBomb = await flatPng(BOMB_SIDE, BOMB_SIDE, [255, 255, 255]);
}, 60_000);

it("the bomb is what the issue describes: about 420 KB for 144 million pixels", () => {
  expect(bomb.length).toBeLessThan(500_000);
  expect(pngSize(bomb)).toEqual({ width: BOMB_SIDE, height: BOMB_SIDE });
});

/** The card's pixels (RGBA) and the bounding box of the pixels of one colour. */
async function cardPixels(png: Buffer) {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const boxOf = (rgb: [number, number, number]) => {
    let left = Infinity;
    let right = -1;
    let count = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (Math.abs(data[i]! - rgb[0]) + Math.abs(data[i + 1]! - rgb[1]) + Math.abs(data[i + 2]! - rgb[2]) > 6) continue;
      const x = (i / 4) % info.width;
      left = Math.min(left, x);
      right = Math.max(right, x);
      count++;
    }
    return count ? { width: right - left + 1, count } : null;
  };
  return { width: info.width, height: info.height, boxOf };
}

async function fetchCard(server: TestServer, token: string): Promise<Response> {
  const imageUrl = headTags(await (await fetch(`${server.baseUrl}/og/list/${token}?lang=de`)).text()).meta["og:image"]!;
  return fetch(imageUrl);
}

async function cardOf(server: TestServer, token: string, answer?: Response): Promise<Buffer> {
  const res = answer ?? (await fetchCard(server, token));
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("image/png");
  // A list's own card, not the default one a failed render falls back to.
  expect(res.headers.get("cache-control")).toContain("immutable");
  return Buffer.from(await res.arrayBuffer());
}

describe("product images and the preview card", () => {
  let server: TestServer;
  let api: Api;
  let dataDir: string;
  let shop: http.Server;
  let shopUrl: string;
  const shopFiles = new Map<string, Buffer>();
  const storedFiles = () => (existsSync(path.join(dataDir, "images")) ? readdirSync(path.join(dataDir, "images")) : []);

  beforeAll(async () => {
    shop = http.createServer((req, res) => {
      const file = shopFiles.get(req.url ?? "");
      if (!file) return res.writeHead(404).end();
      res.writeHead(200, { "content-type": "image/png", "content-length": file.length }).end(file);
    });
    await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", resolve));
    const shopHost = `127.0.0.1:${(shop.address() as AddressInfo).port}`;
    shopUrl = `http://${shopHost}`;
    dataDir = newDataDir();
    server = await startServer({ DATA_DIR: dataDir, FETCH_TEST_ALLOW_HOSTS: shopHost });
    api = await apiFor(server);
  });

  afterAll(async () => {
    await server?.stop();
    shop?.closeAllConnections();
    await new Promise((resolve) => shop?.close(resolve));
  });

  const listOf = (name: string, imageUrls: string[]) =>
    sharedList(api, server.databaseUrl, {
      name,
      ownerName: "Anna Müller",
      products: imageUrls.map((imageUrl, i) => ({ title: `Produkt ${i + 1}`, price: 1999, currency: "EUR", imageUrl })),
    });
  const itemImages = async (token: string): Promise<string[]> => {
    const body = await fetch(`${server.baseUrl}/hosted/public/lists/${token}/items`).then((r) => r.json());
    return JSON.stringify(body).match(/https?:\/\/[^"]+\.(?:png|jpg)/g) ?? [];
  };

  it("a 12,000 × 12,000 PNG saved as a product image is not stored, and the list's card still renders", async () => {
    shopFiles.set("/bomb.png", bomb);
    const before = storedFiles();
    const list = await listOf("Bombenliste", [`${shopUrl}/bomb.png`]);
    // The copy was refused: nothing new in the store, the item keeps the shop's URL.
    expect(storedFiles()).toEqual(before);
    expect(await itemImages(list.token)).toEqual([`${shopUrl}/bomb.png`]);
    expect(server.output()).toContain("more than 40000000");

    const card = await cardPixels(await cardOf(server, list.token));
    expect({ width: card.width, height: card.height }).toEqual({ width: 1200, height: 630 });
  });

  it("an image larger than IMAGE_MAX_SIDE is stored scaled down, named by the bytes stored", async () => {
    shopFiles.set("/poster.png", await flatPng(3000, 2000, [10, 100, 200]));
    const list = await listOf("Posterliste", [`${shopUrl}/poster.png`]);
    const [url] = await itemImages(list.token);
    const name = /\/media\/images\/([0-9a-f]{64}\.png)$/.exec(url ?? "")?.[1];
    expect(name, `stored copy of ${url}`).toBeDefined();
    const stored = readFileSync(path.join(dataDir, "images", name!));
    expect(pngSize(stored)).toEqual({ width: MAX_SIDE, height: Math.round((2000 * MAX_SIDE) / 3000) });
    expect(`${sha(stored)}.png`).toBe(name);
    const served = await fetch(url!);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(stored)).toBe(true);
  });

  it("copies stored before the bounds: bombs are left off the card, large images drawn; the server's peak memory stays bounded", async () => {
    // As an older version stored them: the fetched bytes under their hash, whatever their size.
    const large = [await flatPng(6000, 4000, [200, 30, 30]), await flatPng(4000, 6000, [30, 160, 60])];
    const urls = [bomb, large[0]!, otherBomb, large[1]!].map((png) => {
      const name = `${sha(png)}.png`;
      mkdirSync(path.join(dataDir, "images"), { recursive: true });
      writeFileSync(path.join(dataDir, "images", name), png);
      return `${server.url}/media/images/${name}`;
    });
    const list = await listOf("Alte Bilder", urls);

    await resetPeakRss(server.pid);
    const before = await rssMb(server.pid);
    const answer = await fetchCard(server, list.token);
    const after = await rssMb(server.pid);
    const growth = after.peak - before.now;
    console.log(`peak RSS growth while rendering a card of 2 bombs and 2 images of 24 MP: ${growth.toFixed(0)} MB`);
    const png = await cardOf(server, list.token, answer);

    const card = await cardPixels(png);
    expect({ width: card.width, height: card.height }).toEqual({ width: 1200, height: 630 });
    // Two tiles side by side, one per image under the pixel limit.
    expect(card.boxOf([200, 30, 30])?.width).toBeGreaterThan(150);
    expect(card.boxOf([30, 160, 60])?.width).toBeGreaterThan(150);
    expect(server.output()).toContain('"msg":"preview image left off"');
    // Generous: decoding one bomb alone takes 432 MB, and the renderer decodes every image whole.
    expect(growth).toBeLessThan(300);
  });
});

describe("creator media", () => {
  let server: TestServer;
  let api: Api;
  let dataDir: string;
  let creator: { shopId: number; token: string };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "media-bombs-"));
    server = await startServer({ DATA_DIR: dataDir });
    api = await apiFor(server);
    const prov = await provisioner(server);
    const partner = await prov.partner("free");
    const shop = await prov.shop(partner.id);
    const tokens = await import("~/domains/partners/access-tokens.server");
    creator = { shopId: shop.id, token: (await tokens.createPersonalAccessToken(partner.id, { name: "creator" })).token };
  });

  afterAll(async () => {
    await server?.stop();
  });

  /** Starts an upload of `body` and sends it whole, or as chunk 0 (the default chunk size exceeds it). */
  async function send(body: Buffer, chunked: boolean) {
    const up = await api.post("/media/uploads", { token: creator.token, body: { shopId: creator.shopId, mime: "image/png", bytes: body.length } });
    expect(up.status, up.text).toBe(201);
    const res = await fetch(`${api.baseUrl}/media/uploads/${up.body.uploadId}${chunked ? "/chunks/0" : ""}`, {
      method: "PUT",
      headers: { apikey: api.anonKey, authorization: `Bearer ${creator.token}`, "content-type": "application/octet-stream" },
      body: new Uint8Array(body),
    }).then(async (r) => ({ status: r.status, body: await r.json() }));
    return { upload: up.body as { uploadId: string; storagePath: string }, res };
  }

  const shopFiles = () => {
    const folder = path.join(dataDir, "media", String(creator.shopId));
    return existsSync(folder) ? readdirSync(folder) : [];
  };

  it("an image of 12,000 × 12,000 pixels is refused when its last byte arrives (413 file_too_large) and nothing of it is kept", async () => {
    const { upload, res } = await send(bomb, false);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ error: "file_too_large", max_pixels: 40_000_000, width: BOMB_SIDE, height: BOMB_SIDE });
    expect(shopFiles()).toEqual([]);
    const status = await api.get(`/media/uploads/${upload.uploadId}`, { token: creator.token });
    expect(status.status).toBe(404);
  });

  it("the same when it arrives as a chunk", async () => {
    const { res } = await send(bomb, true);
    expect(res.status).toBe(413);
    expect(res.body.error).toBe("file_too_large");
    expect(shopFiles()).toEqual([]);
  });

  it("an image within the limit is stored and finalised", async () => {
    const image = await flatPng(2000, 1500, [10, 100, 200]);
    const { upload, res } = await send(image, false);
    expect(res.status).toBe(200);
    const done = await api.post(`/media/uploads/${upload.uploadId}/finalize`, { token: creator.token, body: { storagePath: upload.storagePath } });
    expect(done.status, done.text).toBe(201);
    expect(shopFiles()).toContain(path.basename(upload.storagePath));
  });
});
