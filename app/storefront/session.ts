// The shopper's sign-in on APP_URL, kept by the hosted dialog in first-party
// localStorage so a signed-in shopper is recognised on the next open, on any
// shop. Only the dialog reads it; shop pages get the session through the
// widget session store (docs/storefront-protocol.md).
import { ApiFailure, call } from "./client";

export interface UserSession {
  access_token: string;
  refresh_token: string;
  expires_at: number; // seconds since the epoch
  user: { id: string; email?: string | null; is_anonymous?: boolean };
}

const KEY = "wish:session";

function read(): UserSession | null {
  try {
    const s = JSON.parse(localStorage.getItem(KEY) ?? "null");
    return s && typeof s.access_token === "string" && typeof s.refresh_token === "string" ? s : null;
  } catch {
    return null;
  }
}

export function remember(session: UserSession): UserSession {
  localStorage.setItem(KEY, JSON.stringify(session));
  // Lets the share pages know who is looking (the owner's spoiler protection).
  // (Under the dialog's no-referrer policy a page POST would carry `Origin: null`, which page writes refuse.)
  void fetch("/session/cookie", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ access_token: session.access_token }),
    referrerPolicy: "same-origin",
  }).catch(() => undefined);
  return session;
}

export function forget(): void {
  localStorage.removeItem(KEY);
  void fetch("/session/cookie", { method: "DELETE", referrerPolicy: "same-origin" }).catch(() => undefined);
}

/**
 * The stored session with an access token valid for at least another minute
 * (refreshed when needed), or null when there is none or it has ended.
 */
export async function currentSession(force = false): Promise<UserSession | null> {
  const stored = read();
  if (!stored) return null;
  if (!force && stored.expires_at * 1000 - Date.now() > 60_000) return stored;
  try {
    return remember(await call<UserSession>("/auth/token?grant_type=refresh_token", { body: { refresh_token: stored.refresh_token } }));
  } catch (err) {
    // A refused refresh token means the session ended (logout elsewhere, reuse); anything else may pass.
    if (err instanceof ApiFailure && err.status >= 400 && err.status < 500) forget();
    else throw err;
    return null;
  }
}

export const signUpGuest = async () => remember(await call<UserSession>("/auth/signup", { body: {} }));

export async function signIn(mode: "signin" | "signup", email: string, password: string): Promise<UserSession> {
  const path = mode === "signin" ? "/auth/token?grant_type=password" : "/auth/signup";
  return call<UserSession>(path, { body: { email, password } });
}

export async function signOut(session: UserSession): Promise<void> {
  await call("/auth/logout?scope=local", { body: {}, accessToken: session.access_token }).catch(() => undefined);
  forget();
}
