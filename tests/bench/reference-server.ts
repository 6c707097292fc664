// The benchmark's reference (GUIDE section 7): what this machine can
// do for the hot routes. Bare node:http, better-sqlite3 prepared statements
// prepared once, node:crypto ES256, no framework and no log line. It answers
// the requests `npm run bench` sends with the same rows read and written and
// the same JSON shapes as the app (tests/operations/bench-reference.test.ts compares
// them), and nothing else: no error paths beyond refusing what it cannot
// serve, no CORS, no rate-limit counters (the app keeps those in memory and
// flushes them in batches).
//
// It opens the app's SQLite file after the bench seeded it, and signs and
// verifies with the app's own key (AppSecret `jwt_signing_key`) and issuer,
// so one set of fixtures serves both servers.
//
//   node --import tsx tests/bench/reference-server.ts
//   env: REFERENCE_DB (SQLite file), PORT, HOST (127.0.0.1), AUTH_ISSUER ({APP_URL}/api/v1/auth),
//        AUTH_AUDIENCE (authenticated). Prints `listening <url>` when ready.
import { createHash, createPrivateKey, createPublicKey, randomBytes, sign, verify, type KeyObject } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import Database from "better-sqlite3";
// Pure app modules: the same computations as the app, no database or framework.
import { canonicalUrl } from "../../app/domains/products/canonical-url.ts";
import { effectiveRequestPlan, getPlan } from "../../app/domains/plans/plans.ts";
import { currentPeriod } from "../../app/domains/metering/usage.ts";
import { addressUnit } from "../../app/lib/api/client-address.ts";
import { originAllowed, originHost } from "../../app/domains/widget/origin.ts";
import { hostedProduct, type ItemRow } from "../../app/domains/lists/serialize.ts";

const file = process.env.REFERENCE_DB;
const issuer = process.env.AUTH_ISSUER;
if (!file || !issuer) throw new Error("REFERENCE_DB and AUTH_ISSUER are required");
const audience = process.env.AUTH_AUDIENCE || "authenticated";

const db = new Database(file);
db.pragma("busy_timeout = 10000");

// ---------------------------------------------------------------- tokens (ES256, JWS compact)

const secret = db.prepare(`SELECT "value" FROM "AppSecret" WHERE "name" = 'jwt_signing_key'`).get() as { value: string } | undefined;
// The app creates its key when it first signs a token: start this after the app issued one.
if (!secret) throw new Error("no jwt_signing_key in AppSecret yet: let the app sign a token first");
const pem = secret.value;
const privateKey: KeyObject = createPrivateKey(pem);
const publicKey: KeyObject = createPublicKey(privateKey);
const jwk = publicKey.export({ format: "jwk" });
// RFC 7638 thumbprint, as jose's calculateJwkThumbprint gives the app's kid.
const kid = createHash("sha256").update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y })).digest("base64url");
const header = Buffer.from(JSON.stringify({ alg: "ES256", kid, typ: "JWT" })).toString("base64url");

function signJwt(claims: Record<string, unknown>): string {
  const input = `${header}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`;
  return `${input}.${sign("sha256", Buffer.from(input), { key: privateKey, dsaEncoding: "ieee-p1363" }).toString("base64url")}`;
}

/** The claims of a valid token of this use and audience, else null (signature, alg, iss, aud, exp, sub, token_use). */
function verifyJwt(token: string, use: string, aud: string): Record<string, any> | null {
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  try {
    if (JSON.parse(Buffer.from(parts[0], "base64url").toString()).alg !== "ES256") return null;
    const signature = Buffer.from(parts[2], "base64url");
    if (!verify("sha256", Buffer.from(`${parts[0]}.${parts[1]}`), { key: publicKey, dsaEncoding: "ieee-p1363" }, signature)) return null;
    const c = JSON.parse(Buffer.from(parts[1], "base64url").toString());
    const audOk = Array.isArray(c.aud) ? c.aud.includes(aud) : c.aud === aud;
    if (c.iss !== issuer || !audOk || typeof c.exp !== "number" || c.exp <= Date.now() / 1000 || !c.sub) return null;
    return c.token_use === use ? c : null;
  } catch {
    return null;
  }
}

const bearer = (req: IncomingMessage) => /^Bearer (.+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? null;
// Prisma's DateTime text on SQLite.
const sqliteNow = () => new Date().toISOString().replace("Z", "+00:00");

// ---------------------------------------------------------------- statements (app/domains/…)

const q = {
  // widget/init.server.ts: the key with its partner, shops and newest basket config; the month's counter.
  apiKey: db.prepare(`SELECT "id", "partnerId", "environment", "status", "allowedDomains", "requestPlan", "createdAt", "graceExpiresAt" FROM "ApiKey" WHERE "key" = ?`),
  partner: db.prepare(`SELECT "id", "plan" FROM "Partner" WHERE "id" = ?`),
  shops: db.prepare(`SELECT "id", "domain", "primaryDomain", "active", "trialEndsAt", "subscriptionStatus" FROM "PlatformShop" WHERE "partnerId" = ? ORDER BY "installedAt" ASC`),
  basket: db.prepare(`SELECT "publicId", "layout", "primaryColor", "checkout" FROM "BasketConfig" WHERE "partnerId" = ? ORDER BY "createdAt" DESC LIMIT 1`),
  counter: db.prepare(`SELECT "total" FROM "UsageCounter" WHERE "partnerId" = ? AND "period" = ?`),
  touchKey: db.prepare(`UPDATE "ApiKey" SET "lastUsedAt" = ? WHERE "id" = ?`),
  // products/save.server.ts (known product): list, product, title check, plan; then one transaction.
  list: db.prepare(`SELECT "id", "ownerId" FROM "Wishlist" WHERE "id" = ?`),
  product: db.prepare(`SELECT "id", "sourcePartnerId" FROM "Product" WHERE "canonicalUrl" = ?`),
  hasTitle: db.prepare(`SELECT "productId" FROM "ProductLocalization" WHERE "productId" = ? AND "title" <> '' LIMIT 1`),
  // metering/actions.server.ts: a new item claims the saver's, the item's and the address's keys of the hour, then counts
  // (amount 0 only asks a capped plan whether it is paused).
  claimSaver: db.prepare(`
    INSERT INTO "UsageDedup" ("dedupKey", "partnerId", "uses") VALUES (@user, @partnerId, 1), (@item, @partnerId, 1)
    ON CONFLICT ("dedupKey") DO UPDATE SET "uses" = "UsageDedup"."uses" + 1
    WHERE "UsageDedup"."uses" < CASE "UsageDedup"."dedupKey" WHEN @user THEN @cap ELSE 1 END
    RETURNING "dedupKey"`),
  claimAddress: db.prepare(`
    INSERT INTO "UsageDedup" ("dedupKey", "partnerId", "uses") VALUES (?, ?, 1)
    ON CONFLICT ("dedupKey") DO UPDATE SET "uses" = "UsageDedup"."uses" + 1
    WHERE "UsageDedup"."uses" < ?`),
  countSave: db.prepare(`
    INSERT INTO "UsageCounter" ("partnerId", "period", "saves", "shares", "listViews", "total") VALUES (@partnerId, @period, @amount, 0, 0, @amount)
    ON CONFLICT ("partnerId", "period") DO UPDATE SET
      "saves" = "UsageCounter"."saves" + excluded."saves", "shares" = "UsageCounter"."shares" + excluded."shares",
      "listViews" = "UsageCounter"."listViews" + excluded."listViews", "total" = "UsageCounter"."total" + excluded."total"
    WHERE "UsageCounter"."total" < @cap
    RETURNING "total"`),
  countDay: db.prepare(`
    INSERT INTO "UsageDay" ("partnerId", "day", "saves", "shares", "listViews") VALUES (?, ?, 1, 0, 0)
    ON CONFLICT ("partnerId", "day") DO UPDATE SET
      "saves" = "UsageDay"."saves" + excluded."saves", "shares" = "UsageDay"."shares" + excluded."shares",
      "listViews" = "UsageDay"."listViews" + excluded."listViews"`),
  upsertItem: db.prepare(`
    INSERT INTO "ListItem" ("wishlistId", "productId", "addedByUserId", "market", "offerId", "sourceLabel", "variantId",
      "ownTitle", "ownDescription", "ownImageUrl", "ownPriceMinor", "ownCurrency", "sourcePartnerId", "sourceShopId", "sourceDomain", "addedAt")
    VALUES (@wishlistId, @productId, @addedByUserId, @market, @offerId, @sourceLabel, @variantId,
      @ownTitle, @ownDescription, @ownImageUrl, @ownPriceMinor, @ownCurrency, @sourcePartnerId, @sourceShopId, @sourceDomain, @now)
    ON CONFLICT ("wishlistId", "productId") DO UPDATE SET "addedByUserId" = excluded."addedByUserId", "market" = excluded."market",
      "offerId" = excluded."offerId", "sourceLabel" = excluded."sourceLabel", "variantId" = excluded."variantId",
      "sourcePartnerId" = excluded."sourcePartnerId", "sourceShopId" = excluded."sourceShopId", "sourceDomain" = excluded."sourceDomain",
      "ownTitle" = excluded."ownTitle", "ownDescription" = excluded."ownDescription", "ownImageUrl" = excluded."ownImageUrl",
      "ownPriceMinor" = excluded."ownPriceMinor", "ownCurrency" = excluded."ownCurrency"
    RETURNING "id", "addedAt" = @now AS "added"`),
  touchList: db.prepare(`UPDATE "Wishlist" SET "updatedAt" = ? WHERE "id" = ?`),
  // lists/lists.server.ts publicList (the list, its owner and its item count) and lists/items.sql.server.ts.
  publicList: db.prepare(`
    SELECT w."id", w."sharePublic", w."ownerId", (SELECT COUNT(*) FROM "ListItem" c WHERE c."wishlistId" = w."id") AS "itemCount"
    FROM "Wishlist" w WHERE w."shareToken" = ?`),
  owner: db.prepare(`SELECT "id", "displayName", "username", "email", "avatarUrl", "isPremium" FROM "User" WHERE "id" = ?`),
  items: db.prepare(`
    SELECT i."id" AS "itemId", i."wishlistId", i."purchased", i."priority", i."sourceLabel",
           i."priceOverrideMinor", i."currencyOverride", i."addedAt",
           i."ownTitle", i."ownDescription", i."ownImageUrl", i."ownPriceMinor", i."ownCurrency",
           p."id" AS "productId", p."canonicalUrl", p."brand", p."rating", p."reviewCount",
           l."market", l."title", l."description", l."imageUrl", l."originalImageUrl",
           l."priceMinor", l."currency", l."compareAtPriceMinor"
    FROM "ListItem" i
    JOIN "Product" p ON p."id" = i."productId"
    LEFT JOIN "ProductLocalization" l ON l."productId" = p."id"
    WHERE i."wishlistId" = ?
    ORDER BY i."addedAt" DESC, i."id" DESC, l."market" ASC`),
  // identity/identity.server.ts currentUser: the user and the token's session.
  user: db.prepare(`SELECT "id", "email", "isAnonymous", "createdAt", "updatedAt", "lastSignInAt" FROM "User" WHERE "id" = ?`),
  session: db.prepare(`SELECT "revokedAt" FROM "AuthSession" WHERE "id" = ? AND "userId" = ?`),
};

// ---------------------------------------------------------------- routes

type Reply = [status: number, body: unknown];
const refuse = (status: number, error: string): Reply => [status, { error }];

function root(): Reply {
  return [200, { name: "Wishlist API", version: "1.1.0", status: "ok", time: new Date().toISOString() }];
}

const ALLOWLIST_RULE_DATE = new Date("2026-09-01T00:00:00Z");

// keys/keys.server.ts touchKeyUsed: at most one write per key a minute.
const lastTouched = new Map<number, number>();

function widgetInit(req: IncomingMessage, body: any): Reply {
  const key = bearer(req) ?? body?.public_key;
  const origin = typeof body?.origin === "string" ? body.origin.trim() : "";
  const host = originHost(origin);
  if (!key || !host) return refuse(400, "invalid_input");
  const now = new Date();
  const row = q.apiKey.get(key) as any;
  const usable = row && (row.status === "active" || (row.status === "rotated" && row.graceExpiresAt && new Date(row.graceExpiresAt) > now));
  if (!usable) return refuse(403, "unknown_key");
  const partner = q.partner.get(row.partnerId) as { id: number; plan: string };
  const shops = q.shops.all(partner.id) as any[];
  const basket = q.basket.get(partner.id) as any;
  const active = shops.filter((s) => s.active);
  const allowList = (JSON.parse(row.allowedDomains) as unknown[]).filter((d): d is string => typeof d === "string");
  if (shops.length && !active.length) return refuse(403, "unknown_key");
  if (row.environment === "live" && new Date(row.createdAt) > ALLOWLIST_RULE_DATE && !allowList.length) return refuse(403, "allowlist_required");
  if (!originAllowed(host, allowList)) return refuse(403, "origin_not_allowed");
  const shop = active.find((s) => s.domain === host || s.primaryDomain === host) ?? active[0] ?? null;
  const plan = getPlan(partner.plan)!;
  if (shop && shop.subscriptionStatus !== "active" && new Date(shop.trialEndsAt) <= now && plan.id === "free") return refuse(403, "subscription_required");
  const total = (q.counter.get(partner.id, currentPeriod(now).period) as { total: number } | undefined)?.total ?? 0;
  const limit = plan.includedActions;
  const requestPlan = effectiveRequestPlan(row.requestPlan, partner.plan);
  const sid = typeof body.sid === "string" && /^[\w-]{16,64}$/.test(body.sid) ? body.sid : randomBytes(16).toString("base64url");
  const iat = Math.floor(now.getTime() / 1000);
  const token = signJwt({
    partner_id: partner.id, api_key_id: row.id, origin: new URL(origin).origin, shop_id: shop?.id ?? null, sid,
    request_plan: requestPlan, token_use: "widget", iss: issuer, sub: `key:${row.id}`, aud: "widget", iat, exp: iat + 600,
  });
  const last = lastTouched.get(row.id);
  if (last === undefined || now.getTime() - last >= 60_000) {
    lastTouched.set(row.id, now.getTime());
    q.touchKey.run(sqliteNow(), row.id);
  }
  return [200, {
    token, partner_id: partner.id, api_key_id: row.id, exp_minutes: 10, overage: limit !== null && total > limit,
    basketConfig: basket ? { id: basket.publicId, layout: basket.layout, primaryColor: basket.primaryColor, checkout: basket.checkout } : null,
    sid,
  }];
}

const SAVES_PER_USER = Number(process.env.SAVES_PER_USER ?? 20);
const SAVES_PER_ADDRESS = Number(process.env.SAVES_PER_ADDRESS ?? 30);
const UNCAPPED = 2_147_483_647;

/** The product, the item, the usage count and the list's updatedAt commit together. */
const saveTransaction = db.transaction((canonical: string, partnerId: number, cap: number, saver: { userId: string; address: string }, item: Record<string, unknown>) => {
  const product = q.product.get(canonical) as { id: number };
  const saved = q.upsertItem.get({ ...item, productId: product.id }) as { id: number; added: number };
  let counted = false;
  if (saved.added) {
    const hour = Math.floor(Date.now() / 3_600_000);
    const claimed = q.claimSaver.all({ user: `saveuser:${partnerId}:${saver.userId}:${hour}`, item: `saveitem:${item.wishlistId}:${product.id}:${hour}`, partnerId, cap: SAVES_PER_USER });
    counted = claimed.length === 2 && q.claimAddress.run(`saveaddr:${partnerId}:${saver.address}:${hour}`, partnerId, SAVES_PER_ADDRESS).changes > 0;
  }
  if (counted || cap !== UNCAPPED) {
    if (!q.countSave.get({ partnerId, period: currentPeriod().period, amount: counted ? 1 : 0, cap })) throw new Paused();
    if (counted) q.countDay.run(partnerId, new Date().toISOString().slice(0, 10));
  }
  q.touchList.run(sqliteNow(), item.wishlistId);
  return { productId: product.id, itemId: saved.id };
});
class Paused extends Error {}

function widgetSave(req: IncomingMessage, body: any): Reply {
  const widget = verifyJwt(String(req.headers["x-widget-token"] ?? ""), "widget", "widget");
  const user = verifyJwt(bearer(req) ?? "", "user", audience);
  if (!widget || !user) return refuse(401, "unauthorized");
  const origin = req.headers.origin;
  if (origin && origin !== widget.origin) return refuse(403, "forbidden");
  const p = body?.product ?? {};
  const canonical = typeof p.url === "string" ? canonicalUrl(p.url.trim()) : null;
  const list = q.list.get(Number(body?.wishlistId)) as { id: number; ownerId: string } | undefined;
  // Owner only: the bench saves into the user's own list.
  if (!canonical || !list || list.ownerId !== user.sub) return refuse(403, "invalid_wishlist");
  const existing = q.product.get(canonical) as { id: number } | undefined;
  // Known products only, and no scrape (the app asks the page only when neither the request nor the catalogue has a title).
  if (!existing) return refuse(422, "unknown_product");
  const titled = q.hasTitle.get(existing.id) !== undefined;
  if (!titled && !p.title) return refuse(422, "needs_scrape");
  // Not measured either: image copies and checkout metadata.
  if (p.metadata != null || p.partnerMeta != null || p.imageUrl) return refuse(422, "unsupported_fields");
  const partner = q.partner.get(widget.partner_id) as { id: number; plan: string };
  const plan = getPlan(partner.plan)!;
  const priced = typeof p.price === "number";
  // IMMEDIATE, as the app's: a deferred transaction that reads and then writes fails with SQLITE_BUSY when the app's process wrote in between.
  const saver = { userId: user.sub as string, address: addressUnit(req.socket.remoteAddress ?? "0.0.0.0") };
  let saved;
  try {
    saved = saveTransaction.immediate(canonical, partner.id, plan.hardLimit ? plan.includedActions! : UNCAPPED, saver, {
      wishlistId: list.id,
      addedByUserId: user.sub,
      market: p.marketCode || null,
      offerId: p.offerId ?? null,
      sourceLabel: p.sourceLabel ?? null,
      variantId: null,
      ownTitle: p.title ?? null,
      ownDescription: p.description ?? null,
      ownImageUrl: null,
      ownPriceMinor: priced ? p.price : null,
      ownCurrency: priced ? (p.currency ?? null) : null,
      sourcePartnerId: partner.id,
      sourceShopId: widget.shop_id ?? null,
      sourceDomain: originHost(widget.origin),
      now: sqliteNow(),
    });
  } catch (err) {
    if (err instanceof Paused) return refuse(402, "usage_limit_reached");
    throw err;
  }
  return [200, { ok: true, item_id: saved.itemId, product_id: saved.productId }];
}

const int = (v: number | bigint | null) => (v === null ? null : Number(v));

function publicItems(token: string, search: URLSearchParams): Reply {
  const list = q.publicList.get(token) as { id: number; sharePublic: number; ownerId: string } | undefined;
  if (!list || !list.sharePublic) return refuse(404, "not_found");
  q.owner.get(list.ownerId);
  // Grouped into items as items.sql.server.ts does, then the app's own serializer.
  const items = new Map<number, ItemRow>();
  for (const r of q.items.all(list.id) as any[]) {
    let item = items.get(r.itemId);
    if (!item) {
      item = {
        id: r.itemId, wishlistId: r.wishlistId, purchased: Boolean(r.purchased), priority: r.priority, sourceLabel: r.sourceLabel,
        priceOverrideMinor: r.priceOverrideMinor, currencyOverride: r.currencyOverride, ownTitle: r.ownTitle,
        ownDescription: r.ownDescription, ownImageUrl: r.ownImageUrl, ownPriceMinor: r.ownPriceMinor, ownCurrency: r.ownCurrency,
        addedAt: new Date(r.addedAt),
        product: { id: r.productId, canonicalUrl: r.canonicalUrl, brand: r.brand, rating: r.rating, reviewCount: int(r.reviewCount), localizations: [] },
      };
      items.set(r.itemId, item);
    }
    if (r.market !== null) {
      item.product.localizations.push({
        market: r.market, title: r.title ?? "", description: r.description ?? "", imageUrl: r.imageUrl, originalImageUrl: r.originalImageUrl,
        priceMinor: r.priceMinor, currency: r.currency, compareAtPriceMinor: r.compareAtPriceMinor,
      });
    }
  }
  const locale = { market: search.get("market")?.trim() || undefined, lang: search.get("lang")?.trim().toLowerCase() || undefined };
  return [200, { products: [...items.values()].map((i) => hostedProduct(i, locale)) }];
}

function authUser(req: IncomingMessage): Reply {
  const claims = verifyJwt(bearer(req) ?? "", "user", audience);
  if (!claims) return refuse(401, "unauthorized");
  const user = q.user.get(claims.sub) as any;
  const session = typeof claims.session_id === "string" ? (q.session.get(claims.session_id, claims.sub) as any) : undefined;
  if (!user || (typeof claims.session_id === "string" && (!session || session.revokedAt))) return refuse(401, "unauthorized");
  const provider = user.isAnonymous ? "anonymous" : "email";
  const iso = (v: string | null) => (v === null ? null : new Date(v).toISOString());
  return [200, {
    id: user.id, aud: audience, role: "authenticated", email: user.email ?? "", is_anonymous: Boolean(user.isAnonymous),
    created_at: iso(user.createdAt), updated_at: iso(user.updatedAt), last_sign_in_at: iso(user.lastSignInAt),
    app_metadata: { provider, providers: [provider] }, user_metadata: {},
  }];
}

// ---------------------------------------------------------------- server

const ITEMS = /^\/api\/v1\/hosted\/public\/lists\/([^/]+)\/items$/;

function route(req: IncomingMessage, path: string, search: URLSearchParams, body: any): Reply {
  if (req.method === "GET") {
    if (path === "/api/v1/" || path === "/api/v1") return root();
    if (path === "/api/v1/auth/user") return authUser(req);
    const items = ITEMS.exec(path);
    if (items) return publicItems(decodeURIComponent(items[1]), search);
  } else if (req.method === "POST") {
    if (path === "/api/v1/widget/init") return widgetInit(req, body);
    if (path === "/api/v1/widget/save") return widgetSave(req, body);
  }
  return refuse(404, "not_found");
}

function respond(res: ServerResponse, [status, body]: Reply) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    try {
      const q = req.url!.indexOf("?");
      const path = q === -1 ? req.url! : req.url!.slice(0, q);
      const search = new URLSearchParams(q === -1 ? "" : req.url!.slice(q + 1));
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
      respond(res, route(req, path, search, body));
    } catch (err) {
      respond(res, [500, { error: "internal", message: (err as Error).message }]);
    }
  });
});
server.keepAliveTimeout = 65_000;
const host = process.env.HOST || "127.0.0.1";
server.listen(Number(process.env.PORT || 0), host, () => {
  const address = server.address();
  console.log(`listening http://${host}:${typeof address === "object" && address ? address.port : ""}`);
});
const stop = () => server.close(() => (db.close(), process.exit(0)));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
