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
import { addressUnit } from "~/lib/api/client-address";
import { authenticateUserToken } from "~/domains/identity/identity.server";
import { getEncryptionKey } from "~/domains/secrets/secrets.server";
import { LIST_VIEW_WINDOW_MS, type ListViewer } from "./actions.server";

/** How long a browser keeps its viewer id. */
const VIEWER_ID_MAX_AGE_S = 365 * 86_400;

let cookieKey: Buffer | undefined;
async function signingKey(): Promise<Buffer> {
  return (cookieKey ??= Buffer.from(hkdfSync("sha256", await getEncryptionKey(), "", "list-viewer-cookie", 32)));
}

const sign = (key: Buffer, payload: string) => createHmac("sha256", key).update(payload).digest("base64url").slice(0, 22);
const windowOf = (ms: number) => Math.floor(ms / LIST_VIEW_WINDOW_MS);

/** The viewer id's id and issue window when its signature holds; null otherwise. */
function verifyViewerId(key: Buffer, value: string | null): { id: string; issued: number } | null {
  const match = value?.match(/^([A-Za-z0-9_-]{22})\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]{22})$/);
  if (!match) return null;
  const [, id, issued, signature] = match;
  const expected = Buffer.from(sign(key, `${id}.${issued}`));
  const given = Buffer.from(signature!);
  if (!timingSafeEqual(expected, given)) return null;
  return { id: id!, issued: parseInt(issued!, 36) };
}

function newViewerId(key: Buffer, nowMs: number): { value: string; maxAgeSeconds: number } {
  const id = randomBytes(16).toString("base64url");
  const payload = `${id}.${windowOf(nowMs).toString(36)}`;
  return { value: `${payload}.${sign(key, payload)}`, maxAgeSeconds: VIEWER_ID_MAX_AGE_S };
}

/** A fresh viewer id as issued at `nowMs` (the viewer cookie's value); tests use it. */
export async function issueViewerId(nowMs = Date.now()): Promise<string> {
  return newViewerId(await signingKey(), nowMs).value;
}

/** What a request tells about its viewer (the HTTP wing reads it: app/http/cookies.server.ts viewerSignals). */
export interface ViewerSignals {
  userAgent: string | null;
  /** The Authorization header's bearer token, if any. */
  bearerToken: string | null;
  /** The viewer cookie's value, if any. */
  viewerCookie: string | null;
  /** The client's address as the server resolved it; null when unknown. */
  address: string | null;
}

/**
 * The viewer of a public list, or null for a bot. Share pages pass the user
 * their site session names as `userId` (verified by the caller).
 */
export async function listViewer(signals: ViewerSignals & { userId?: string | null }, now = Date.now()): Promise<ListViewer | null> {
  if (isbot(signals.userAgent)) return null;
  const address = addressUnit(signals.address ?? "0.0.0.0");
  const token = signals.userId ? null : signals.bearerToken;
  const identity = token && !token.startsWith("pk_") ? await authenticateUserToken(token) : null;
  const key = await signingKey();
  const presented = verifyViewerId(key, signals.viewerCookie);
  const newId = presented ? null : newViewerId(key, now);
  const signedIn = signals.userId ?? identity?.userId;
  if (signedIn) return { key: `u:${signedIn}`, address, newViewerId: newId };
  if (presented && presented.issued < windowOf(now)) return { key: `c:${presented.id}`, address, newViewerId: newId };
  return { key: `a:${address}`, address, newViewerId: newId };
}
