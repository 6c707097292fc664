// Browser-side access to the API from the hosted dialog pages. They run on
// APP_URL, so calls are same-origin (no anon key needed) and carry the widget
// token and the shopper's user token as the SPEC's routes require.
import { formatMoney } from "~/lib/money";

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    /** The SPEC error code, or "network" when no answer came. */
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface CallOptions {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  body?: unknown;
  widgetToken?: string;
  accessToken?: string;
}

/** Calls `APP_URL/api/v1{path}`; resolves with the JSON body or throws ApiFailure. */
export const call = <T = unknown>(path: string, opts: CallOptions = {}): Promise<T> => request<T>(`/api/v1${path}`, opts);

/** Calls a route of the site itself (`/session/…`), same contract as `call`. */
export const callSite = <T = unknown>(path: string, opts: CallOptions = {}): Promise<T> => request<T>(path, opts);

async function request<T>(url: string, opts: CallOptions): Promise<T> {
  const headers: Record<string, string> = {};
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  if (opts.widgetToken) headers["x-widget-token"] = opts.widgetToken;
  if (opts.accessToken) headers.authorization = `Bearer ${opts.accessToken}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: opts.method ?? (opts.body === undefined ? "GET" : "POST"),
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      credentials: "same-origin",
      // The dialog pages send no Referer elsewhere; to their own origin a real Origin header is wanted.
      referrerPolicy: "same-origin",
    });
  } catch {
    throw new ApiFailure(0, "network", "No connection");
  }
  if (res.status === 204) return undefined as T;
  const data = await res.json().catch(() => null);
  if (!res.ok) {
    const code = typeof data?.error === "string" ? data.error : `http_${res.status}`;
    throw new ApiFailure(res.status, code, typeof data?.message === "string" ? data.message : code);
  }
  return data as T;
}

/** The payload of a widget token (not verified here: every API call verifies it). */
export interface WidgetTokenClaims {
  origin: string;
  sid: string;
  partnerId: number | null;
  exp: number;
}

export function widgetClaims(token: string): WidgetTokenClaims | null {
  try {
    const part = token.split(".")[1];
    const json = JSON.parse(atob(part.replace(/-/g, "+").replace(/_/g, "/")));
    if (typeof json.origin !== "string" || !/^https?:\/\//.test(json.origin) || typeof json.sid !== "string") return null;
    return { origin: json.origin, sid: json.sid, partnerId: typeof json.partner_id === "number" ? json.partner_id : null, exp: Number(json.exp) || 0 };
  } catch {
    return null;
  }
}

/** A message to the shop page (the opener or the parent frame), only ever to the token's verified origin. */
export function tell(target: Window | null, origin: string, message: Record<string, unknown>): void {
  try {
    target?.postMessage({ source: "wish", ...message }, origin);
  } catch {
    // The page went away; nothing to tell.
  }
}

/** A price in minor units of its currency's own exponent as the page's language writes it; null without an amount or currency. */
export function formatPrice(minor: number | null | undefined, currency: string | null | undefined, lang: string): string | null {
  if (typeof minor !== "number" || !currency) return null;
  return formatMoney(minor, currency, lang === "de" ? "de-DE" : "en-US");
}
