// The one place that turns failures into the SPEC error body
// `{error, message?, …extra}` and its status.

export class ApiError extends Error {
  readonly hasMessage: boolean;

  constructor(
    readonly status: number,
    readonly code: string,
    message?: string,
    readonly extra: Record<string, unknown> = {},
    /** Response headers that belong to the error (e.g. Allow). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message ?? code);
    this.name = "ApiError";
    this.hasMessage = message !== undefined;
  }

  body(): Record<string, unknown> {
    return { error: this.code, ...(this.hasMessage ? { message: this.message } : {}), ...this.extra };
  }
}

export const badRequest = (code: string, message?: string, extra?: Record<string, unknown>) =>
  new ApiError(400, code, message, extra);
export const unauthorized = (message = "Missing or invalid credentials") => new ApiError(401, "unauthorized", message);
export const forbidden = (code = "forbidden", message?: string, extra?: Record<string, unknown>) =>
  new ApiError(403, code, message, extra);
export const notFound = (code = "not_found", message?: string) => new ApiError(404, code, message);

/** Seconds a client is asked to wait (Retry-After) when the database does not answer. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** 503 `service_unavailable`: the database does not answer; the request may be retried. */
export const serviceUnavailable = () =>
  new ApiError(503, "service_unavailable", "The service is temporarily unavailable; try again shortly", {}, {
    "Retry-After": String(UNAVAILABLE_RETRY_AFTER_SECONDS),
  });

/** Seconds a client is asked to wait (Retry-After) when a process is at its bound of requests in flight. */
export const OVERLOADED_RETRY_AFTER_SECONDS = 1;

/** 503 `service_unavailable`: this process has MAX_REQUESTS_IN_FLIGHT requests in flight already. */
export const overloaded = () =>
  new ApiError(503, "service_unavailable", "The server is at capacity; try again shortly", {}, {
    "Retry-After": String(OVERLOADED_RETRY_AFTER_SECONDS),
  });

/**
 * Status and body for any thrown value; unknown failures hide their details.
 * `unavailable`: the database did not answer (503 with Retry-After, not a 500),
 * also when a route had wrapped that into a 500 of its own while the database is down.
 */
export function errorBody(
  err: unknown,
  database: { unavailable: (err: unknown) => boolean; down: () => boolean } = NO_DATABASE,
): {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
  unexpected: boolean;
  unavailable: boolean;
} {
  if (database.unavailable(err) || (err instanceof ApiError && err.status === 500 && database.down())) {
    const e = serviceUnavailable();
    return { status: e.status, body: e.body(), headers: e.headers, unexpected: false, unavailable: true };
  }
  if (err instanceof ApiError) return { status: err.status, body: err.body(), headers: err.headers, unexpected: false, unavailable: false };
  return { status: 500, body: { error: "Internal server error" }, headers: {}, unexpected: true, unavailable: false };
}

const NO_DATABASE = { unavailable: () => false, down: () => false };
