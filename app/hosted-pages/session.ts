// The shopper's account session on APP_URL, as the hosted pages see it. The
// session itself is the HttpOnly first-party cookie `wish_user`
// (app/domains/identity/site-session.server.ts); scripts never hold a refresh
// token. They trade the cookie for a short-lived access token
// (`POST /session/token`) whenever they need one: nothing rotates, so the
// dialog, "My lists" and any number of tabs never invalidate each other.
// Shop pages get a partner-scoped credential instead (docs/storefront-protocol.md).
import { call, callSite } from "./client";

export interface UserSession {
  access_token: string;
  expires_at: number; // seconds since the epoch
  user: { id: string; email?: string | null; is_anonymous?: boolean };
}

interface IssuedSession extends UserSession {
  refresh_token?: string;
}

/** Where an earlier version of the dialog kept the whole session. */
const LEGACY_KEY = "wish:session";

let cached: UserSession | null = null;

const keep = (s: IssuedSession): UserSession => (cached = { access_token: s.access_token, expires_at: s.expires_at, user: s.user });

/** Sets the site cookie for a session the identity provider just issued; the refresh token is dropped. */
async function adopt(session: IssuedSession): Promise<UserSession> {
  await callSite("/session/cookie", { body: { access_token: session.access_token } });
  return keep(session);
}

/** An access token valid for at least another minute, or null when nobody is signed in on this site. */
export async function currentSession(force = false): Promise<UserSession | null> {
  if (!force && cached && cached.expires_at * 1000 - Date.now() > 60_000) return cached;
  const { session } = await callSite<{ session: UserSession | null }>("/session/token", { body: {} });
  if (session) return keep(session);
  cached = null;
  return adoptLegacySession();
}

/** A shopper signed in with an earlier version (session in localStorage) keeps it: moved into the cookie once. */
async function adoptLegacySession(): Promise<UserSession | null> {
  let legacy: IssuedSession | null = null;
  try {
    legacy = JSON.parse(localStorage.getItem(LEGACY_KEY) ?? "null");
    localStorage.removeItem(LEGACY_KEY);
  } catch {
    return null;
  }
  if (!legacy?.refresh_token) return null;
  try {
    return await adopt(await call<IssuedSession>("/auth/token?grant_type=refresh_token", { body: { refresh_token: legacy.refresh_token } }));
  } catch {
    return null;
  }
}

export const signUpGuest = async () => adopt(await call<IssuedSession>("/auth/signup", { body: {} }));

export async function signIn(mode: "signin" | "signup", email: string, password: string): Promise<UserSession> {
  const path = mode === "signin" ? "/auth/token?grant_type=password" : "/auth/signup";
  return adopt(await call<IssuedSession>(path, { body: { email, password } }));
}

/** Ends the sign-in session (every credential derived from it stops) and removes the cookie. */
export async function signOut(session: UserSession): Promise<void> {
  await call("/auth/logout?scope=local", { body: {}, accessToken: session.access_token }).catch(() => undefined);
  await callSite("/session/cookie", { method: "DELETE" }).catch(() => undefined);
  cached = null;
}
