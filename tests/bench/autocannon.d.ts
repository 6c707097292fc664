// The part of autocannon 8's API the benchmark uses (the package ships no types).
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD" | "OPTIONS";

  interface RawRequest {
    method?: Method;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  }

  interface Request extends RawRequest {
    /** Returns the request to send; the context is reset each time the requests list wraps around. */
    setupRequest?: (request: RawRequest & { headers: Record<string, string> }, context: Record<string, unknown>) => RawRequest | null | undefined;
    onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string | string[]>) => void;
  }

  interface Client extends EventEmitter {
    setRequests(requests: Request[]): void;
  }

  interface Options extends RawRequest {
    url: string;
    connections?: number;
    pipelining?: number;
    /** Seconds. */
    duration?: number;
    /** Seconds. */
    timeout?: number;
    requests?: Request[];
    /** Called once per connection, before its first request. */
    setupClient?: (client: Client) => void;
  }

  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
  }

  interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    resets: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  interface Instance extends EventEmitter {
    on(event: "response", listener: (client: Client, statusCode: number, resBytes: number, responseTime: number) => void): this;
    on(event: string, listener: (...args: any[]) => void): this;
    stop(): void;
  }

  function autocannon(options: Options, callback: (err: Error | null, result: Result) => void): Instance;

  namespace autocannon {
    export type { Client, Instance, Options, Request, Result };
  }

  export = autocannon;
}
