// What `npm run bench` measures. Adding a hot route = adding one entry to
// SCENARIOS. Every request carries the anon key (`apikey`); a JSON body gets
// `content-type: application/json`.
import type { BenchApi } from "./harness.ts";

export interface RequestSpec {
  headers?: Record<string, string>;
  /** Sent as is when a string, JSON-encoded otherwise. */
  body?: unknown;
}

/**
 * Per-connection chained requests, for state that a request consumes (a
 * refresh token can be exchanged once): every connection starts from its own
 * state and sends one request at a time (pipelining 1).
 */
export interface Chain<S> {
  /** The state connection `index` starts a run with (fixtures through the API). */
  start(api: BenchApi, index: number): Promise<S>;
  /** The request to send from the current state. */
  request(state: S): RequestSpec;
  /** The state after a 2xx response with this body. */
  next(state: S, body: string): S;
}

export interface Scenario {
  /** Short name, used by BENCH_ONLY and in the results. */
  name: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Under {base_url} (APP_URL/api/v1), query string included. */
  path: string;
  /**
   * Runs before every measured run (so no run inherits state another one
   * consumed) and returns what every request of the run sends.
   */
  setup?: (api: BenchApi) => Promise<RequestSpec>;
  /** Instead of one fixed request: chained requests per connection (over what setup returned). */
  chain?: Chain<any>;
}

export const chain = <S>(c: Chain<S>): Chain<S> => c;

/** The framework ceiling: the service status route (no database, no auth). */
export const CEILING: Scenario = { name: "ceiling", method: "GET", path: "/" };

export const SCENARIOS: Scenario[] = [
  { name: "health", method: "GET", path: "/health" },
  {
    name: "auth.refresh",
    method: "POST",
    path: "/auth/token?grant_type=refresh_token",
    chain: chain<{ refreshToken: string }>({
      start: async (api) => ({ refreshToken: (await api.anonymousUser()).refresh_token }),
      request: (s) => ({ body: { refresh_token: s.refreshToken } }),
      next: (_, body) => ({ refreshToken: JSON.parse(body).refresh_token }),
    }),
  },
  {
    name: "auth.user",
    method: "GET",
    path: "/auth/user",
    setup: async (api) => ({ headers: { authorization: `Bearer ${(await api.anonymousUser()).access_token}` } }),
  },
];
