// Signing in, signing up and signing out on the "My lists" page: the
// identity provider's own grants (the same functions as `/auth/token` and
// `/auth/signup`), then the site's `wish_user` cookie for the new sign-in
// session. A guest (anonymous user) who signs in or up keeps everything:
// the guest's lists move into the account exactly as
// `POST /hosted/migrate-anonymous-to-provider` moves them, before the cookie
// changes hands, so a failed move leaves the shopper a guest with nothing lost.
import { accessTokenOfSession, logout, passwordGrant, signUp, verifyUserToken, type Identity, type Session } from "~/domains/identity/identity.server";
import { migrateAnonymousToProvider, type Moved } from "./account-merge.server";
import { siteTokenOfAccessToken, type SiteToken } from "~/domains/identity/site-session.server";
import { ApiError, badRequest } from "~/lib/api/errors";
import { errorFields, log } from "~/lib/log.server";

export interface Credentials {
  email: string;
  password: string;
}

export interface SignedIn {
  /** The new sign-in session's site token, for the site cookie. */
  site: SiteToken;
  /** What moved from the guest account; null when the shopper was no guest. */
  moved: Moved | null;
}

/** Ends a sign-in session the page created but will not use (its access token names it). */
async function endSession(session: Session): Promise<void> {
  const identity = await verifyUserToken(session.access_token);
  if (identity?.sessionId) await logout(identity, "local").catch((err) => log.warn("sign-in session not ended", errorFields(err)));
}

async function finish(current: Identity | null, session: Session): Promise<SignedIn> {
  let moved: Moved | null = null;
  if (current?.isAnonymous && current.sessionId && current.userId !== session.user.id) {
    // The guest proves itself with an access token of its own, still live, sign-in session.
    const guest = await accessTokenOfSession(current.userId, current.sessionId);
    try {
      if (!guest) throw new ApiError(500, "migration_failed", "The guest account is gone");
      moved = await migrateAnonymousToProvider(session.user.id, guest.access_token);
    } catch (err) {
      log.error("guest lists not moved on sign-in", { userId: current.userId, ...errorFields(err) });
      await endSession(session);
      throw new ApiError(500, "migration_failed", "The guest's lists could not be moved into the account");
    }
  } else if (current?.sessionId && !current.isAnonymous) {
    // An account was signed in on this browser already: its sign-in ends with the cookie that held it.
    await logout(current, "local");
  }
  return { site: await siteTokenOfAccessToken(session.access_token), moved };
}

function checkFilled(credentials: Credentials) {
  if (!credentials.email.trim() || !credentials.password) {
    throw badRequest("missing_credentials", "Enter the e-mail address and the password");
  }
}

/**
 * Password sign-in for the page; `current` is the shopper the cookie names now (a guest's lists move along),
 * `clientAddress` the caller's address (the grant's throttle counts failures per address too).
 */
export async function signInOnSite(current: Identity | null, credentials: Credentials, clientAddress: string | null): Promise<SignedIn> {
  checkFilled(credentials);
  return finish(current, await passwordGrant(credentials, clientAddress));
}

/** A new account with e-mail and password; a guest's lists move into it. */
export async function signUpOnSite(current: Identity | null, credentials: Credentials): Promise<SignedIn> {
  checkFilled(credentials);
  return finish(current, await signUp(credentials));
}

/** Ends the cookie's sign-in session (the API's `logout` with scope local); the caller removes the cookie. */
export async function signOutOnSite(current: Identity | null): Promise<void> {
  if (current?.sessionId) await logout(current, "local");
}
