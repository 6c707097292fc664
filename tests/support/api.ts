// A small HTTP client for tests: real requests against a running server.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { inject } from "vitest";
import { root } from "./server.ts";
import { sql } from "./sql.ts";

const execFileAsync = promisify(execFile);

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
    const res = await fetch(this.baseUrl + pathname, { method, headers, body });
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

/** Runs `wish …` (the operator CLI) against a database; resolves with parsed stdout or rejects with stderr. */
export async function wish(databaseUrl: string, args: string[], env: Record<string, string> = {}): Promise<any> {
  const { stdout } = await execFileAsync(process.execPath, [path.join(root, "app/cli/wish.mjs"), ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "warn", ...env },
  });
  return JSON.parse(stdout);
}

/** Like `wish` but resolves with exit code, stdout and stderr instead of throwing. */
export async function wishRaw(databaseUrl: string, args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [path.join(root, "app/cli/wish.mjs"), ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "warn", ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** The shared server of this run, with its anon key (read once by the global setup). */
export async function sharedApi(): Promise<Api & { server: ReturnType<typeof inject<"server">> }> {
  const server = inject("server");
  return Object.assign(new Api(server.baseUrl, server.anonKey), { server });
}

/** An Api for any server started in a test. */
export async function apiFor(server: { url: string; baseUrl: string; databaseUrl: string }): Promise<Api> {
  return new Api(server.baseUrl, await anonKeyOf(server));
}

/**
 * The server's anon key: the one it stored (a read, where a `wish config`
 * process would cost half a second of CPU), else through `wish config`, which
 * creates it as the server would.
 */
export async function anonKeyOf(server: { url: string; databaseUrl: string }): Promise<string> {
  const [stored] = await sql<{ value: string }>(server.databaseUrl, `SELECT "value" FROM "AppSecret" WHERE "name" = 'anon_key'`);
  return stored?.value ?? (await wish(server.databaseUrl, ["config"], { APP_URL: server.url })).config.anon_key;
}
