// A small HTTP client for tests: real requests against a running server, or
// Web Requests handed to an in-process app (tests/support/in-process.ts).
import { readFileSync } from "node:fs";
import { inject } from "vitest";
import { anonKeyOf } from "./cli.ts";
import type { InProcessServer } from "./in-process.ts";

export { anonKeyOf, wish, wishRaw } from "./cli.ts";

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as `Authorization: Bearer …`. */
  token?: string;
  headers?: Record<string, string>;
  /** Leave out the anon key header. */
  noApiKey?: boolean;
}

export class Api {
  constructor(
    readonly baseUrl: string,
    readonly anonKey: string,
    /** Where requests go: the network, or an in-process app. */
    private readonly send: (url: string, init: RequestInit) => Promise<Response> = fetch,
  ) {}

  async request<T = any>(method: string, pathname: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    if (!opts.noApiKey) headers.apikey = this.anonKey;
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
      headers["content-type"] ??= "application/json";
    }
    const res = await this.send(this.baseUrl + pathname, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  get = <T = any>(p: string, o?: RequestOptions) => this.request<T>("GET", p, o);
  post = <T = any>(p: string, o?: RequestOptions) => this.request<T>("POST", p, o);
  put = <T = any>(p: string, o?: RequestOptions) => this.request<T>("PUT", p, o);
  delete = <T = any>(p: string, o?: RequestOptions) => this.request<T>("DELETE", p, o);

  /** A new anonymous user's session. */
  async anonymousUser(): Promise<{ userId: string; accessToken: string; refreshToken: string }> {
    const res = await this.post("/auth/signup", { body: {} });
    if (res.status !== 200) throw new Error(`signup failed: ${res.status} ${res.text}`);
    return { userId: res.body.user.id, accessToken: res.body.access_token, refreshToken: res.body.refresh_token };
  }
}

/** The shared server of this run, with its anon key (read once by the global setup); `server.output()` is its log so far (every file's lines). */
export async function sharedApi() {
  const shared = inject("server");
  const server = { ...shared, output: () => readFileSync(shared.logFile, "utf8") };
  return Object.assign(new Api(server.baseUrl, server.anonKey), { server });
}

/**
 * The run's shared server with the Shopify app's keys (`SHARED_SHOPIFY`, shared-shopify.ts), for a file
 * that needs nothing else of its own: it signs with `SHARED_SHOPIFY.secret` and arranges shops, partners and
 * customers of its own, so no other file's data is in its way. `server.output()` is the server's log so far
 * (every file's requests, not only this one's).
 */
export async function sharedShopifyApi() {
  const shared = inject("shopifyServer");
  const server = { ...shared, output: () => readFileSync(shared.logFile, "utf8") };
  return Object.assign(new Api(server.baseUrl, server.anonKey), { server });
}

/** An Api for any server started in a test, or for an in-process app (startInProcess). */
export async function apiFor(server: { url: string; baseUrl: string; databaseUrl: string } | InProcessServer): Promise<Api> {
  if ("fetch" in server) return new Api(server.baseUrl, server.anonKey, server.fetch);
  return new Api(server.baseUrl, await anonKeyOf(server));
}


/** A response text as JSON, or null when it is empty or not JSON (the Api client above gives undefined instead). */
export function jsonOrNull(text: string): any {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}
