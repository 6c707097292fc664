// Who is viewing a public list, for list_view metering (SPEC 8: one per list,
// viewer and 10-minute window). Nothing a client merely claims makes it a new
// viewer:
//   1. a bot (isbot on the User-Agent) is no viewer at all;
//   2. a valid user token: its user;
//   3. a valid first-party viewer cookie (server-issued, HMAC-signed, so an
//      invented value counts as no cookie);
//   4. else the client's address (the connection's peer, or the
//      X-Forwarded-For entry a TRUSTED_PROXIES proxy vouches for).
// A cookie counts from the window after it was issued, so a browser's first
// visit is not counted once under its address and again under its cookie.
// Whatever the viewer, one address produces at most VIEWS_PER_ADDRESS views
// of one list per window (recordListView). No database read: the cookie key
// is derived from the encryption key held in memory.
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import { isbot } from "isbot";
import { env } from "~/env.server";
import { addressUnit, clientAddress } from "~/lib/api/client-address";
import { authenticateUserToken } from "~/domains/identity/identity.server";
import { getEncryptionKey } from "~/domains/secrets/secrets.server";
import { LIST_VIEW_WINDOW_MS, type ListViewer } from "./actions.server";
import type { WithHeaders } from "~/lib/api/http";

export const VIEWER_COOKIE = "wl_viewer";
const COOKIE_MAX_AGE_S = 365 * 86_400;

let cookieKey: Buffer | undefined;
async function signingKey(): Promise<Buffer> {
  return (cookieKey ??= Buffer.from(hkdfSync("sha256", await getEncryptionKey(), "", "list-viewer-cookie", 32)));
}

const sign = (key: Buffer, payload: string) => createHmac("sha256", key).update(payload).digest("base64url").slice(0, 22);
const windowOf = (ms: number) => Math.floor(ms / LIST_VIEW_WINDOW_MS);

function readCookie(request: WithHeaders, name: string): string | null {
  const header = request.headers.get("cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** The cookie's id and issue window when its signature holds; null otherwise. */
function verifyCookie(key: Buffer, value: string | null): { id: string; issued: number } | null {
  const match = value?.match(/^([A-Za-z0-9_-]{22})\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]{22})$/);
  if (!match) return null;
  const [, id, issued, signature] = match;
  const expected = Buffer.from(sign(key, `${id}.${issued}`));
  const given = Buffer.from(signature!);
  if (!timingSafeEqual(expected, given)) return null;
  return { id: id!, issued: parseInt(issued!, 36) };
}

function newCookie(key: Buffer, nowMs: number): string {
  const id = randomBytes(16).toString("base64url");
  const payload = `${id}.${windowOf(nowMs).toString(36)}`;
  const secure = new URL(env.APP_URL).protocol === "https:" ? "; Secure" : "";
  return `${VIEWER_COOKIE}=${payload}.${sign(key, payload)}; Path=/; Max-Age=${COOKIE_MAX_AGE_S}; HttpOnly; SameSite=Lax${secure}`;
}

/** A fresh viewer cookie as issued at `nowMs` (Set-Cookie value); share pages and tests use it. */
export async function issueViewerCookie(nowMs = Date.now()): Promise<string> {
  return newCookie(await signingKey(), nowMs);
}

const bearer = (request: WithHeaders) => request.headers.get("authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1] ?? null;

/**
 * The viewer of a public list behind this request, or null for a bot. Takes
 * the Remix loader's `request` and `context`; share pages pass the user their
 * `wish_user` cookie names as `userId` (verified by the caller).
 */
export async function listViewer(
  { request, context, userId }: { request: WithHeaders; context?: unknown; userId?: string | null },
  now = Date.now(),
): Promise<ListViewer | null> {
  if (isbot(request.headers.get("user-agent"))) return null;
  const address = addressUnit(clientAddress(context) ?? "0.0.0.0");
  const token = userId ? null : bearer(request);
  const identity = token && !token.startsWith("pk_") ? await authenticateUserToken(token) : null;
  const key = await signingKey();
  const cookie = verifyCookie(key, readCookie(request, VIEWER_COOKIE));
  const setCookie = cookie ? null : newCookie(key, now);
  const signedIn = userId ?? identity?.userId;
  if (signedIn) return { key: `u:${signedIn}`, address, setCookie };
  if (cookie && cookie.issued < windowOf(now)) return { key: `c:${cookie.id}`, address, setCookie };
  return { key: `a:${address}`, address, setCookie };
}
