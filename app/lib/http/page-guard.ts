// Requests that Remix would answer with an empty 500 (or route to the wrong
// place): checked by the HTTP server before Remix sees them (app/server/main.ts).

const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * True for a form/data write to a page from another origin. Mirrors Remix's
 * own CSRF check (Origin host against X-Forwarded-Host, else Host), which
 * throws and answers 500 with no body; here it becomes a 403.
 * X-Forwarded-Host counts only when `forwardedHostTrusted` (the connection
 * comes from a proxy in TRUSTED_PROXIES): anyone else can send it.
 */
export function isCrossOriginPageWrite(
  method: string,
  headers: { origin?: string; host?: string; "x-forwarded-host"?: string },
  forwardedHostTrusted: boolean,
): boolean {
  if (!UNSAFE_METHODS.has(method)) return false;
  const origin = headers.origin;
  if (origin === undefined) return false;
  let originHost: string;
  try {
    originHost = origin === "null" ? "null" : new URL(origin).host;
  } catch {
    return true; // an Origin that is not a URL cannot be ours
  }
  const forwarded = forwardedHostTrusted ? headers["x-forwarded-host"]?.split(",")[0]?.trim() : undefined;
  const host = forwarded || headers.host;
  return !host || originHost !== host;
}

/**
 * Why no route can match the raw request path, or null: not valid
 * percent-encoded UTF-8 (`/%ff`), a decoded line break (`%0A`), which
 * Remix's route patterns never match, so `/api/v1/x/%0A` would fall out of
 * the API into a page render, or NUL (`%00`), which no id or token holds and
 * PostgreSQL cannot compare.
 */
export function unroutablePath(rawPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return "The path is not valid percent-encoded UTF-8";
  }
  return /[\0\r\n\u2028\u2029]/.test(decoded) ? "The path contains a NUL or line break character" : null;
}
