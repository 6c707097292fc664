// Bounds of the retailer-list import (SPEC 7.6): the list page is read in the
// scrape workers under their time budget, never on the request thread, and
// one import or re-sync takes at most IMPORT_MAX_ITEMS items and makes at most
// IMPORT_MAX_FETCHES outbound fetches, IMPORT_FETCH_CONCURRENCY at once.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api } from "../support/api.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { pause } from "../support/wait.ts";
import { expectError } from "../support/fixtures.ts";

// JSON-LD nested 216,000 levels deep (2.8 MB): reading it took the request thread 0.4 to 1.2 s per page.
const DEPTH = 216_000;
const deepJsonLd = `${'{"@graph":['.repeat(DEPTH)}1${"]}".repeat(DEPTH)}`;

function listPage(items: Array<{ path: string; name: string; image?: string }>, extraJsonLd = "") {
  const list = {
    "@context": "https://schema.org",
    "@type": "ItemList",
    itemListElement: items.map((p, i) => ({ "@type": "ListItem", position: i + 1, item: { "@type": "Product", name: p.name, url: p.path, image: p.image } })),
  };
  const scripts = [extraJsonLd, JSON.stringify(list)].filter(Boolean).map((doc) => `<script type="application/ld+json">${doc}</script>`);
  return `<!doctype html><html><head>${scripts.join("")}</head><body><h1>List</h1></body></html>`;
}

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);
const bigList = (from: number) => listPage(range(from, 600).map((i) => ({ path: `/p/${i}`, name: `Item ${i}`, image: `/img/${i}.png` })));

// A valid 1×1 PNG: the image copy stores only bytes that are the image they claim to be.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

const pages: Record<string, string> = {
  // 2.8 MB, deeply nested, and a list of 20 items after it.
  "/lists/deep": listPage(range(0, 20).map((i) => ({ path: `/deep/${i}`, name: `Deep ${i}` })), deepJsonLd),
  // The same nesting without a list: the import answers right after reading it.
  "/lists/deep-no-list": `<!doctype html><html><head><script type="application/ld+json">${deepJsonLd}</script></head><body></body></html>`,
  "/lists/big": bigList(0),
  "/lists/small": listPage([{ path: "/p/small", name: "Small" }]),
};

/** What the origin saw: requests in all, the most in flight at once, image requests. */
const origin = { requests: 0, inFlight: 0, maxInFlight: 0, images: 0 };
let bigListFrom = 0;
/** `/lists/held`: the deep page without a list, its last bytes held back until the test releases them. */
let held: { requested: Promise<() => void>; arrived: (release: () => void) => void } = newHold();

function newHold() {
  let arrived!: (release: () => void) => void;
  const requested = new Promise<() => void>((resolve) => (arrived = resolve));
  return { requested, arrived };
}

let shop: http.Server;
let S = "";
let server: TestServer;
let api: Api;

beforeAll(async () => {
  shop = http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    origin.requests++;
    origin.inFlight++;
    origin.maxInFlight = Math.max(origin.maxInFlight, origin.inFlight);
    res.on("close", () => origin.inFlight--);
    if (path.startsWith("/img/")) {
      origin.images++;
      // A little latency, so that requests of one import would overlap if nothing bounded them.
      setTimeout(() => res.writeHead(200, { "content-type": "image/png" }).end(PNG), 20);
      return;
    }
    if (path === "/lists/held") {
      const body = pages["/lists/deep-no-list"]!;
      // Announced once all but the last bytes are handed to the network.
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).write(body.slice(0, -1024), () => held.arrived(() => res.end(body.slice(-1024))));
      return;
    }
    const body = path === "/lists/big" ? bigList(bigListFrom) : pages[path];
    if (!body) return res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body);
  });
  await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", () => resolve()));
  const port = (shop.address() as AddressInfo).port;
  S = `http://127.0.0.1:${port}`;
  // A generous budget and two workers: a loaded machine must not turn a slow read into a failed import here.
  server = await startServer({ FETCH_TEST_ALLOW_HOSTS: `127.0.0.1:${port}`, SCRAPE_TIMEOUT_MS: "20000", SCRAPE_WORKERS: "2" });
  api = await apiFor(server);
});

afterAll(async () => {
  await server?.stop();
  shop?.closeAllConnections();
  await new Promise<void>((resolve) => (shop ? shop.close(() => resolve()) : resolve()));
});

type User = Awaited<ReturnType<Api["anonymousUser"]>>;

async function newList(a: Api, user: User) {
  const res = await a.post("/hosted/me/lists", { token: user.accessToken, body: { name: "Imported" } });
  expect(res.status, res.text).toBe(200);
  return res.body.token as string;
}

/** POST /imports with fetch, so that the moment its answer arrives is known. */
async function timedImport(base: string, user: User, listUrl: string, wishlistToken: string) {
  const res = await fetch(`${base}/imports`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${user.accessToken}`, apikey: api.anonKey },
    body: JSON.stringify({ listUrl, wishlistToken }),
    signal: AbortSignal.timeout(60_000),
  });
  const body = await res.json();
  return { status: res.status, body, answeredAt: performance.now() };
}

interface Probe {
  sentAt: number;
  answeredAt: number;
  ms: number;
}

function figures(label: string, probes: Probe[]) {
  const ms = probes.map((p) => p.ms).sort((a, b) => a - b);
  const at = (q: number) => Math.round(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? NaN);
  // Figures for the report, not assertions: wall-clock numbers on a shared machine.
  console.log(`${label}: /health p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${Math.round(ms.at(-1) ?? NaN)} ms over ${ms.length} probes`);
}

describe("reading the list page off the request thread", () => {
  it("/health answers while a 2.8 MB deeply nested JSON-LD page is being read", async () => {
    expect(pages["/lists/deep-no-list"]!.length).toBeGreaterThan(2_800_000);
    const user = await api.anonymousUser();
    const token = await newList(api, user);
    // Warm-up: the first read starts the workers.
    expect((await timedImport(server.baseUrl, user, `${S}/lists/small`, token)).status).toBe(201);

    held = newHold();
    const answer = timedImport(server.baseUrl, user, `${S}/lists/held`, token);
    const release = await held.requested;
    // The server reads what has arrived while it waits for the rest (it answers requests in between).
    for (let i = 0; i < 5; i++) expect(await probeHealth()).not.toBeNull();
    const logFrom = server.output().length;
    release();
    // From here on the server has the whole page; reading it on the request thread would answer nothing until done.
    const { result } = await collectProbes(() => answer);
    // No list in the page: 400 invalid_list_url, answered as soon as the page has been read.
    expect(result.status, JSON.stringify(result.body)).toBe(400);
    expect(result.body.error).toBe("invalid_list_url");
    // The server's request log, in the order it answered: /health requests sent after the last bytes were answered before the import.
    await expect.poll(() => server.output().slice(logFrom).includes('"path":"/api/v1/imports"')).toBe(true);
    const answered = server
      .output()
      .slice(logFrom)
      .split("\n")
      .filter((line) => line.includes('"msg":"request"'))
      .map((line) => JSON.parse(line).path as string);
    const importAt = answered.indexOf("/api/v1/imports");
    expect(importAt, answered.join(", ")).toBeGreaterThanOrEqual(0);
    const healthFirst = answered.slice(0, importAt).filter((path) => path === "/api/v1/health").length;
    console.log(`/health answered after the page's last bytes, before the import: ${healthFirst}`);
    // Probes go every 10 ms; the first ones leave with the page's last bytes and may be answered before
    // the server has them. Five answers mean the server answered for 40 ms or more with the whole page in hand.
    expect(healthFirst, answered.join(", ")).toBeGreaterThanOrEqual(5);
  });

  it("8 concurrent imports of a 2.8 MB deeply nested JSON-LD list page: each reads the page's 20 items", async () => {
    const user = await api.anonymousUser();
    const idle = await collectProbes(() => pause(1000, "a second of health probes on an idle server, the baseline"));
    figures("idle", idle.probes);
    const tokens = await Promise.all(range(0, 8).map(() => newList(api, user)));
    const { result: answers, probes } = await collectProbes(() => Promise.all(tokens.map((token) => timedImport(server.baseUrl, user, `${S}/lists/deep`, token))));
    figures("8 concurrent imports of the 2.8 MB page", probes);
    for (const answer of answers) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      expect(answer.body).toMatchObject({ added: 20, skipped: 0, items_found: 20, items_over_limit: 0, images_not_copied: 0 });
    }
  });
});

describe("the time budget for reading a list page (SCRAPE_TIMEOUT_MS)", () => {
  let slow: TestServer;
  let slowApi: Api;
  beforeAll(async () => {
    // A 1 ms budget: every page runs out of it, which is what a page too costly to read looks like.
    slow = await startServer({ FETCH_TEST_ALLOW_HOSTS: new URL(S).host, SCRAPE_TIMEOUT_MS: "1" });
    slowApi = await apiFor(slow);
  });
  afterAll(async () => {
    await slow?.stop();
  });

  it("a page over the budget fails the import with 400 invalid_list_url saying so; nothing is kept, the server answers on", async () => {
    const user = await slowApi.anonymousUser();
    const token = await newList(slowApi, user);
    for (let i = 0; i < 2; i++) {
      const res = await slowApi.post("/imports", { token: user.accessToken, body: { listUrl: `${S}/lists/deep`, wishlistToken: token } });
      expectError(res, 400, "invalid_list_url");
      expect(res.body.message).toBe("Not a supported list page: the page could not be read within the time budget (1 ms)");
    }
    expect(slow.output()).toContain('"reason":"timeout"');
    expect((await slowApi.get("/imports", { token: user.accessToken })).body.imports).toEqual([]);
    expect((await slowApi.get(`/hosted/lists/${token}/items`, { token: user.accessToken })).body.products).toEqual([]);
    expect((await slowApi.get("/health")).status).toBe(200);
  });
});

describe("items and outbound fetches per import (IMPORT_MAX_ITEMS 200, IMPORT_MAX_FETCHES 100, IMPORT_FETCH_CONCURRENCY 4)", () => {
  async function itemTitles(user: User, token: string) {
    const res = await api.get(`/hosted/lists/${token}/items`, { token: user.accessToken });
    expect(res.status, res.text).toBe(200);
    return (res.body.products as Array<{ title: string; imageUrl: string | null }>).map((p) => p.title);
  }

  function resetOrigin() {
    Object.assign(origin, { requests: 0, inFlight: 0, maxInFlight: 0, images: 0 });
  }

  it("a 600-item list: the first 200 items come over, at most 101 requests reach the site, 4 at a time; the answer says what was left out", async () => {
    const user = await api.anonymousUser();
    const token = await newList(api, user);
    bigListFrom = 0;
    resetOrigin();
    const res = await api.post("/imports", { token: user.accessToken, body: { listUrl: `${S}/lists/big`, wishlistToken: token } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      added: 200,
      skipped: 0,
      items_found: 600,
      items_limit: 200,
      items_over_limit: 400,
      images_not_copied: 100,
      import: { item_count: 600, status: "synced" },
    });
    // The page, then one image copy per item up to the fetch bound.
    expect(origin.requests, `requests at the site: ${origin.requests}`).toBeLessThanOrEqual(101);
    expect(origin.images).toBe(100);
    expect(origin.maxInFlight, `most requests in flight: ${origin.maxInFlight}`).toBeLessThanOrEqual(4);
    console.log(`600-item import: ${origin.requests} requests at the site, at most ${origin.maxInFlight} in flight`);
    const titles = await itemTitles(user, token);
    expect(titles.sort()).toEqual(range(0, 200).map((i) => `Item ${i}`).sort());

    // The list moved on by 200 items on the retailer's side: the re-sync keeps to the same bounds.
    bigListFrom = 200;
    resetOrigin();
    const sync = await api.post(`/imports/${res.body.import.id}/sync`, { token: user.accessToken });
    expect(sync.status, sync.text).toBe(200);
    expect(sync.body).toMatchObject({ added: 200, skipped: 0, items_found: 600, items_over_limit: 400, images_not_copied: 100 });
    expect(origin.requests, `requests at the site: ${origin.requests}`).toBeLessThanOrEqual(101);
    expect(origin.maxInFlight, `most requests in flight: ${origin.maxInFlight}`).toBeLessThanOrEqual(4);
    expect(await itemTitles(user, token)).toHaveLength(400);
  });
});

/** Runs `work` while a loop sends GET /health every 10 ms; the probes that were answered. */
async function collectProbes<T>(work: () => Promise<T>): Promise<{ result: T; probes: Probe[] }> {
  let done = false;
  const pending: Promise<Probe | null>[] = [];
  const loop = (async () => {
    while (!done) {
      pending.push(probeHealth());
      await pause(10, "the pace of the health probes");
    }
  })();
  try {
    const result = await work();
    done = true;
    await loop;
    const probes = (await Promise.all(pending)).filter((p): p is Probe => p !== null);
    return { result, probes };
  } finally {
    done = true;
  }
}

async function probeHealth(): Promise<Probe | null> {
  const sentAt = performance.now();
  try {
    const res = await fetch(`${server.baseUrl}/health`, { signal: AbortSignal.timeout(30_000) });
    await res.text();
    const answeredAt = performance.now();
    return res.status === 200 ? { sentAt, answeredAt, ms: answeredAt - sentAt } : null;
  } catch {
    return null;
  }
}
