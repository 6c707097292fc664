// Property-based fuzzing of every route of app/api/route-table.ts:
// any method, malformed path parameters and hostile JSON bodies, with and
// without credentials, must never give a 5xx, and every error must be the
// SPEC error body `{error: string, …}`.
//
// Deterministic: the seed is printed; FUZZ_SEED=<n> replays a run, FUZZ_RUNS
// sets the runs per route. No input can reach the internet: every string that
// looks like an http(s) or protocol-relative URL is rewritten to 127.0.0.1,
// which the fetch guard refuses before connecting.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { API_ROUTES } from "~/api/route-table";
import { sharedApi, wish } from "../support/api.ts";

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const REQUEST_TIMEOUT_MS = 20_000;

let api: Awaited<ReturnType<typeof sharedApi>>;
/** Real values for path parameters, so the fuzzer also reaches past "not found". */
const valid: Record<string, string[]> = {};
type Credentials = "none" | "anon" | "user" | "widget+user" | "partner" | "garbage";
let headersFor: (c: Credentials, route: string) => Record<string, string>;

beforeAll(async () => {
  api = await sharedApi();
  const db = api.server.databaseUrl;
  const user = await api.anonymousUser();
  // Logout ends every session of its user: it gets its own, so the others stay usable.
  const logoutUser = await api.anonymousUser();
  // DELETE /account deletes its user: it gets its own too.
  const accountUser = await api.anonymousUser();
  const friend = await api.anonymousUser();
  const list = await api.post("/hosted/me/lists", { token: user.accessToken, body: { name: "Fuzz" } });
  const item = await api.post(`/hosted/lists/${list.body.token}/items/manual`, { token: user.accessToken, body: { title: "Fuzz item" } });
  const partner = (await wish(db, ["partner", "create", "--name", "Fuzz", "--email", "fuzz@shop.test", "--plan", "growth"])).partner;
  const pat = (await wish(db, ["pat", "create", "--partner", String(partner.partner_id)])).access_token;
  const widgetKey = (await wish(db, ["key", "create", "--partner", String(partner.partner_id), "--env", "test"])).key;
  // The routes may revoke, rotate or delete the key they are given: not the widget's.
  const spareKey = (await wish(db, ["key", "create", "--partner", String(partner.partner_id), "--env", "test"])).key;
  const basket = await wish(db, ["basket", "create", "--partner", String(partner.partner_id)]);
  const init = await api.post("/widget/init", {
    headers: { authorization: `Bearer ${widgetKey.key}` },
    body: { origin: "http://localhost:5173" },
  });
  expect(init.status).toBe(200);

  Object.assign(valid, {
    token: [list.body.token],
    itemId: [String(item.body.item.item_id)],
    productId: [String(item.body.item.id)],
    userId: [friend.userId],
    id: [basket.basket.id, String(spareKey.id)],
    apiKeyId: [String(spareKey.id)],
  });
  headersFor = (c, route) => {
    const anon = { apikey: api.anonKey };
    const bearer =
      route === "api/v1/auth/logout" ? logoutUser.accessToken : route === "api/v1/account" ? accountUser.accessToken : user.accessToken;
    switch (c) {
      case "none":
        return {};
      case "anon":
        return anon;
      case "user":
        return { ...anon, authorization: `Bearer ${bearer}` };
      case "widget+user":
        return { ...anon, authorization: `Bearer ${bearer}`, "x-widget-token": init.body.token, origin: "http://localhost:5173" };
      case "partner":
        return { ...anon, authorization: `Bearer ${pat.token}` };
      case "garbage":
        return { ...anon, authorization: "Bearer \u00ff.\u00fe.x", "x-widget-token": "a.b.c", "x-service-key": "x" };
    }
  };
  console.log(`fuzz: seed ${SEED} (FUZZ_SEED to replay), ${RUNS} runs per route, ${API_ROUTES.length} routes`);
});

// ---------------------------------------------------------------- inputs

const LOCAL_URL = "http://127.0.0.1:9/fuzz";

/** Rewrites anything fetchable to the loopback address the fetch guard refuses. */
function defang(value: unknown): unknown {
  if (typeof value === "string") return /^\s*(https?:|\/\/|\\\\)|:\/\//i.test(value) ? LOCAL_URL : value;
  if (Array.isArray(value)) return value.map(defang);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, defang(v)]));
  }
  return value;
}

const encode = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return encodeURIComponent(Buffer.from(s, "utf8").toString("utf8")); // lone surrogates become U+FFFD
  }
};

const loneSurrogate = fc.constantFrom("\ud800", "\udfff", "a\udbffb", "\udc00\ud800");
const nastyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  loneSurrogate,
  fc.constantFrom("", " ", "0", "-1", "null", "true", "javascript:alert(1)", "data:text/html,x", "../../etc/passwd", "%00", "\u0000", "bkt_", "wpat_x", "pk_test_x"),
  fc.constant("x".repeat(3000)),
  fc.constant(LOCAL_URL),
);
const nastyNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.constantFrom(0, -0, -1, 1, 4, 5, 1e308, -1e308, 2 ** 53 + 1, 2 ** 64, 1.5, Number.MAX_SAFE_INTEGER, 5e-324),
);
const leaf = fc.oneof(fc.constant(null), fc.boolean(), nastyNumber, nastyString);
const nastyValue = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small", withCrossShrink: true }, leaf, tie("array"), tie("object")),
  array: fc.array(tie("value"), { maxLength: 4 }),
  object: fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), loneSurrogate), tie("value"), { maxKeys: 4 }),
})).value;

/** Field names the routes read, so bodies reach past "missing field". */
const FIELDS = [
  "name", "title", "description", "url", "product", "wishlistId", "state", "session", "type", "meta", "image_path",
  "imageUrl", "price", "currency", "priority", "marketCode", "share_public", "occasion_slug", "email", "password",
  "origin", "public_key", "sid", "access_token", "refresh_token", "environment", "allowed_domains", "purchased",
  "target", "targetWishlistId", "copy", "userId", "webhookUrl", "checkout", "layout", "primaryColor",
  "expires_in_days", "anonymous_access_token", "legacy_id", "identifier", "market", "price_override_minor",
  "currency_override", "metadata", "partnerMeta", "siteDomain", "offerId", "productId", "rawProductId", "sourceLabel",
  "friendId", "displayName", "username", "avatarUrl", "spoilerProtection", "idea", "category", "rating", "comment",
];
const shapedBody = fc.dictionary(fc.constantFrom(...FIELDS), fc.oneof(leaf, nastyValue), { maxKeys: 6 });
const productBody = fc.record({
  wishlistId: fc.oneof(fc.constant(-1), nastyNumber, nastyString),
  product: fc.oneof(shapedBody, fc.record({ url: fc.oneof(fc.constant(LOCAL_URL), nastyString), title: nastyString })),
});

const deepText = fc.integer({ min: 33, max: 6000 }).map((n) => `{"meta":${"[".repeat(n)}1${"]".repeat(n)}}`);
const loneText = fc.constantFrom(`{"name":"\\ud800"}`, `{"title":"a\\udc00"}`, `{"\\udbff":1}`, `["\\ud83d"]`);
const garbageText = fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom("{", "[1,]", '{"a":}', "\u0000", "NaN", "1e999999"));

/** A request body as sent: undefined (none), or text with its content type. */
const body = fc.oneof(
  fc.constant(undefined),
  fc.oneof(shapedBody, productBody, nastyValue).map((v) => ({ text: JSON.stringify(defang(v)) ?? "null", type: "application/json" })),
  fc.oneof(deepText, loneText, garbageText).map((text) => ({ text, type: "application/json" })),
  fc.constantFrom("text/plain", "application/x-www-form-urlencoded").map((type) => ({ text: "a=b", type })),
);

const badSegment = fc.oneof(
  fc.constantFrom("%ff", "%ff%fe", "%e0%80", "%ed%a0%80", "%", "%zz", "%c3%28", "%f0%28%8c%28", "%2f", "..", "%00", "a%00b", "%0a"),
  fc.constant("a".repeat(4000)),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 }).map(encode),
  fc.string({ unit: "binary", minLength: 1, maxLength: 20 }).map(encode),
  loneSurrogate.map(encode),
  fc.constantFrom("0", "-1", "1.5", "99999999999999999999", "1e5", "NaN", "bkt_x", "null"),
);

function paramArb(name: string) {
  const real = valid[name] ?? [];
  return real.length ? fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...real) }, { weight: 3, arbitrary: badSegment }) : badSegment;
}

/** A concrete path for a route pattern: each `:param` and `*` filled in. */
function pathArb(pattern: string) {
  const segments = pattern.split("/");
  return fc.tuple(
    ...segments.map((s) => {
      if (s === "*") return fc.array(badSegment, { maxLength: 3 }).map((parts) => parts.join("/"));
      if (s.startsWith(":")) return paramArb(s.slice(1));
      return fc.constant(s);
    }),
  ).map((parts) => "/" + parts.join("/"));
}

const method = fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD");
const credentials = fc.constantFrom<Credentials>("none", "anon", "user", "widget+user", "partner", "garbage");

// ---------------------------------------------------------------- the property

const query = fc.constantFrom("", "?market=de-DE&lang=de", "?lang=%ff", "?market=%ed%a0%80", "?market=%00", "?grant_type=password&scope=%ff", "?a=1&a=2");

async function send(route: string, m: string, path: string, b: { text: string; type: string } | undefined, c: Credentials) {
  const headers: Record<string, string> = { ...headersFor(c, route) };
  if (b) headers["content-type"] = b.type;
  const sendsBody = b !== undefined && m !== "GET" && m !== "HEAD";
  const res = await fetch(api.server.url + path, {
    method: m,
    headers,
    body: sendsBody ? b!.text : undefined,
    redirect: "manual",
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return { status: res.status, text: await res.text(), type: res.headers.get("content-type") ?? "" };
}

describe("fuzzing every API route", () => {
  it(
    "no input gives a 5xx, and every error is {error: string}",
    async () => {
      const failures: string[] = [];
      for (const [index, [pattern]] of API_ROUTES.entries()) {
        const target = fc.tuple(pathArb(pattern), query).map(([p, q]) => p + q);
        const property = fc.asyncProperty(method, target, body, credentials, async (m, path, b, c) => {
          const res = await send(pattern, m, path, b, c);
          const where = `${m} ${path.slice(0, 200)} [${c}] body=${b?.text.slice(0, 200)}`;
          if (res.status >= 500) throw new Error(`${res.status} for ${where}: ${res.text.slice(0, 300)}`);
          if (res.status >= 400 && m !== "HEAD") {
            let parsed: unknown;
            try {
              parsed = JSON.parse(res.text);
            } catch {
              throw new Error(`non-JSON ${res.status} (${res.type}) for ${where}: ${res.text.slice(0, 200)}`);
            }
            const error = (parsed as { error?: unknown } | null)?.error;
            if (typeof error !== "string") throw new Error(`error body without a string code for ${where}: ${res.text.slice(0, 200)}`);
          }
        });
        const result = await fc.check(property, { seed: SEED + index, numRuns: RUNS, endOnFailure: true });
        if (result.failed) failures.push(`${pattern} (seed ${SEED + index}): ${String(result.errorInstance ?? "").split("\n")[0]}`);
      }
      expect(failures).toEqual([]);
    },
    240_000,
  );
});
