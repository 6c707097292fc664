// HTTP hygiene: every HTML page has a CSP whose
// frame-ancestors lets only the Shopify admin embed /app/*, and nobody embed
// dialogs, share pages or anything else; pages that carry tokens send no
// Referer; every response, JSON and static files included, has nosniff.
import { beforeAll, describe, expect, it } from "vitest";
import { sharedApi } from "../support/api.ts";

let api: Awaited<ReturnType<typeof sharedApi>>;
beforeAll(async () => {
  api = await sharedApi();
});

const get = (path: string, init: RequestInit = {}) => fetch(api.server.url + path, { redirect: "manual", ...init });

function directives(csp: string | null): Record<string, string> {
  expect(csp).toBeTruthy();
  return Object.fromEntries(
    csp!.split(";").map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name!, values.join(" ")];
    }),
  );
}

describe("HTML pages", () => {
  it.each(["/", "/no/such/page", "/dialog/save", "/dialog/basket", "/en/list/sometoken", "/de/list/sometoken"])(
    "%s cannot be framed by anyone and sends nosniff",
    async (path) => {
      const res = await get(path);
      expect(res.headers.get("content-type")).toMatch(/text\/html/);
      const csp = directives(res.headers.get("content-security-policy"));
      expect(csp["frame-ancestors"]).toBe("'none'");
      expect(csp["object-src"]).toBe("'none'");
      expect(csp["base-uri"]).toBe("'self'");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    },
  );

  it.each(["/app", "/app/settings", "/auth/exit-iframe"])("%s (embedded admin) may be framed only by the Shopify admin", async (path) => {
    const res = await get(path);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    const csp = directives(res.headers.get("content-security-policy"));
    expect(csp["frame-ancestors"]).toBe("https://admin.shopify.com https://*.myshopify.com");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("pages whose address carries a token send no Referer (share pages: only to themselves, for their forms); others send only the origin cross-site", async () => {
    for (const path of ["/dialog/save", "/api/v1/og/list/sometoken"]) {
      expect((await get(path)).headers.get("referrer-policy"), path).toBe("no-referrer");
    }
    expect((await get("/en/list/sometoken")).headers.get("referrer-policy")).toBe("same-origin");
    for (const path of ["/", "/app/settings"]) {
      expect((await get(path)).headers.get("referrer-policy"), path).toBe("strict-origin-when-cross-origin");
    }
  });

  it("inline scripts run only with the document's nonce, a new one per response", async () => {
    const first = await get("/");
    const html = await first.text();
    const nonce = /'nonce-([^']+)'/.exec(first.headers.get("content-security-policy")!)![1]!;
    expect(directives(first.headers.get("content-security-policy"))["script-src"]).not.toContain("unsafe-inline");
    const scripts = html.match(/<script\b[^>]*>/g)!;
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    const second = await get("/");
    await second.text();
    expect(second.headers.get("content-security-policy")).not.toContain(nonce);
  });
});

describe("JSON and static responses", () => {
  it.each([
    ["GET", "/api/v1/health"],
    ["GET", "/api/v1/no/such/route"],
    ["POST", "/api/v1/hosted/lists"],
    ["GET", "/api/v1/baskets/%ff"],
    ["GET", "/%ff"],
    ["GET", "/media/images/nothing.png"],
  ])("%s %s sends nosniff", async (method, path) => {
    const res = await get(path, { method });
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    await res.text();
  });

  it("a static asset sends nosniff", async () => {
    const html = await (await get("/")).text();
    const asset = /\/assets\/[^"]+\.js/.exec(html)![0];
    const res = await get(asset);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    await res.text();
  });
});
