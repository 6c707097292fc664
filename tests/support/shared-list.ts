// Lists for the share-page and link-preview tests: a public list with a
// named owner (and avatar), an occasion, priced items with priorities, product
// images stored in the server's image store, products at a chosen shop host and
// manual items (no product page).
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Resvg } from "@resvg/resvg-js";
import type { Api } from "./api.ts";
import { sql } from "./sql.ts";

export const newDataDir = () => mkdtempSync(path.join(tmpdir(), "wish-share-"));

/**
 * A real PNG put into DATA_DIR/images as the image store would; returns its URL there.
 * By default a 160 px square of `colour`; with `size`, a product shot: a
 * `colour` object on a white background of that size.
 */
export function storeProductImage(server: { url: string }, dataDir: string, colour: string, size?: { width: number; height: number }): string {
  const svg = size
    ? `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}"><rect width="100%" height="100%" fill="#fff"/>` +
      `<rect x="15%" y="20%" width="70%" height="65%" rx="${Math.min(size.width, size.height) / 12}" fill="${colour}"/>` +
      `<circle cx="50%" cy="20%" r="${Math.min(size.width, size.height) / 8}" fill="none" stroke="${colour}" stroke-width="${Math.min(size.width, size.height) / 30}"/></svg>`
    : `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="160"><rect width="160" height="160" fill="${colour}"/></svg>`;
  const png = new Resvg(svg).render().asPng();
  const name = `${createHash("sha256").update(png).digest("hex")}.png`;
  mkdirSync(path.join(dataDir, "images"), { recursive: true });
  writeFileSync(path.join(dataDir, "images", name), png);
  return `${server.url}/media/images/${name}`;
}

export interface SharedList {
  token: string;
  dbId: number;
  owner: { userId: string; accessToken: string };
  /** item_id of each saved product, in save order. */
  itemIds: number[];
}

/** `manual`: typed in by the owner (no product page); otherwise saved from `https://<host>/products/…`. */
type Product = { title: string; price?: number; currency?: string; priority?: number; imageUrl?: string; manual?: boolean };

/** A public list of `products` owned by a user called `ownerName`. */
export async function sharedList(
  api: Api,
  databaseUrl: string,
  opts: {
    name: string;
    description?: string;
    ownerName: string;
    ownerAvatar?: string;
    occasion?: string;
    products: Product[];
    makePublic?: boolean;
    /** Host of the products' pages (default shop.example.com). */
    host?: string;
  },
): Promise<SharedList> {
  const owner = await api.anonymousUser();
  await sql(databaseUrl, `UPDATE "User" SET "displayName" = ?, "avatarUrl" = ? WHERE id = ?`, [
    opts.ownerName,
    opts.ownerAvatar ?? null,
    owner.userId,
  ]);
  const created = await api.post("/hosted/me/lists", { token: owner.accessToken, body: { name: opts.name } });
  if (created.status !== 200) throw new Error(`list create: ${created.status} ${created.text}`);
  const token: string = created.body.token;
  const dbId: number = created.body.list.db_id;
  const itemIds: number[] = [];
  for (const [i, p] of opts.products.entries()) {
    if (p.manual) {
      const res = await api.post(`/hosted/lists/${token}/items/manual`, {
        token: owner.accessToken,
        body: { title: p.title, price: p.price, currency: p.currency, priority: p.priority, imageUrl: p.imageUrl, marketCode: "de-DE" },
      });
      if (res.status !== 200) throw new Error(`manual item: ${res.status} ${res.text}`);
      itemIds.push(res.body.item_id ?? res.body.item?.item_id);
      continue;
    }
    const res = await api.post("/hosted/save", {
      token: owner.accessToken,
      body: {
        wishlistId: dbId,
        product: {
          url: `https://${opts.host ?? "shop.example.com"}/products/${Math.random().toString(36).slice(2)}-${i}`,
          title: p.title,
          price: p.price,
          currency: p.currency,
          priority: p.priority,
          imageUrl: p.imageUrl,
          marketCode: "de-DE",
        },
      },
    });
    if (res.status !== 200) throw new Error(`save: ${res.status} ${res.text}`);
    itemIds.push(res.body.item_id ?? res.body.item?.item_id);
  }
  const update = await api.put(`/hosted/lists/${token}`, {
    token: owner.accessToken,
    body: { share_public: opts.makePublic ?? true, description: opts.description ?? "", occasion_slug: opts.occasion ?? "" },
  });
  if (update.status !== 200) throw new Error(`list update: ${update.status} ${update.text}`);
  return { token, dbId, owner: { userId: owner.userId, accessToken: owner.accessToken }, itemIds };
}

/** The big-endian width and height in a PNG's IHDR chunk (bytes 16–23). */
export function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (!signature.every((b, i) => bytes[i] === b)) throw new Error("not a PNG");
  if (Buffer.from(bytes.subarray(12, 16)).toString("latin1") !== "IHDR") throw new Error("no IHDR first");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** Meta/link tags of an HTML document, by property or name (first wins), plus canonical and alternates. */
export function headTags(html: string) {
  const attrs = (tag: string) =>
    Object.fromEntries([...tag.matchAll(/([a-zA-Z:-]+)="([^"]*)"/g)].map((m) => [m[1]!.toLowerCase(), decode(m[2]!)]));
  const meta: Record<string, string> = {};
  for (const [tag] of html.matchAll(/<meta\s[^>]*>/g)) {
    const a = attrs(tag);
    const key = a.property ?? a.name;
    if (key && a.content !== undefined && !(key in meta)) meta[key] = a.content;
  }
  const links = [...html.matchAll(/<link\s[^>]*>/g)].map(([tag]) => attrs(tag));
  return {
    meta,
    canonical: links.find((l) => l.rel === "canonical")?.href,
    alternates: Object.fromEntries(links.filter((l) => l.rel === "alternate").map((l) => [l.hreflang, l.href])),
  };
}

const decode = (s: string) =>
  s.replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
