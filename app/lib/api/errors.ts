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

/** Status and body for any thrown value; unknown failures hide their details. */
export function errorBody(err: unknown): {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
  unexpected: boolean;
} {
  if (err instanceof ApiError) return { status: err.status, body: err.body(), headers: err.headers, unexpected: false };
  return { status: 500, body: { error: "Internal server error" }, headers: {}, unexpected: true };
}
