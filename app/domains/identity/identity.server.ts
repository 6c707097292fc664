// The identity provider behind {base_url}/auth (GoTrue-shaped, GUIDE section 5):
// sign-up (e-mail + password, or anonymous), password and refresh-token
// grants, logout, and the verification of user tokens for every other route.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { z } from "zod";
import { db } from "~/db.server";
import { isUniqueViolation } from "~/db/errors";
import { env } from "~/env.server";
import { ApiError, badRequest } from "~/lib/api/errors";
import { signToken, unverifiedIssuer, verifyToken } from "./jwt.server";
import { isSessionRevoked, noteRevokedSessions } from "./session-revocations.server";
import { admitSignIn } from "./sign-in-throttle.server";
import { userById, type UserRow } from "./identity.sql.server";
import { checkDisplayName, DISPLAY_NAME_MAX } from "./display-name";
import { DUMMY_HASH, hashPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, verifyPassword } from "./passwords.server";

/** Who a valid user token speaks for. */
export interface Identity {
  userId: string;
  /** Our own sign-in session; null for tokens of an external issuer. */
  sessionId: string | null;
  isAnonymous: boolean;
  email: string | null;
  /**
   * Set when the credential is a shop page's partner-scoped shopper
   * credential: it speaks for the user only towards this partner's widget.
   */
  partnerScope?: number;
  /** The token's session was opened by a password-recovery link (`POST /auth/verify`): it may set a password without the current one. */
  recovery?: boolean;
}

// ---------------------------------------------------------------- tokens

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
const newRefreshToken = () => randomBytes(32).toString("base64url");
const refreshExpiry = () => new Date(Date.now() + env.REFRESH_TOKEN_TTL_DAYS * 86_400_000);

async function sessionBody(user: UserRow, sessionId: string, refreshToken: string, via?: "recovery") {
  const { token, expiresAt } = await signToken(
    {
      session_id: sessionId,
      is_anonymous: user.isAnonymous,
      email: user.email ?? "",
      role: "authenticated",
      // GoTrue's authentication methods claim; "recovery" lets this token set a password without the current one.
      ...(via ? { amr: [{ method: via, timestamp: Math.floor(Date.now() / 1000) }] } : {}),
    },
    { use: "user", subject: user.id, audience: env.AUTH_AUDIENCE, ttlSeconds: env.ACCESS_TOKEN_TTL_SECONDS },
  );
  return {
    access_token: token,
    token_type: "bearer" as const,
    expires_in: env.ACCESS_TOKEN_TTL_SECONDS,
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user: userJson(user),
  };
}

export function userJson(user: UserRow) {
  const provider = user.isAnonymous ? "anonymous" : "email";
  return {
    id: user.id,
    aud: env.AUTH_AUDIENCE,
    role: "authenticated",
    email: user.email ?? "",
    is_anonymous: user.isAnonymous,
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
    last_sign_in_at: user.lastSignInAt?.toISOString() ?? null,
    app_metadata: { provider, providers: [provider] },
    user_metadata: user.displayName ? { display_name: user.displayName } : {},
  };
}

export type Session = Awaited<ReturnType<typeof sessionBody>>;

/**
 * A fresh access token of an existing sign-in session, without a refresh
 * token: what the site cookie trades for (`POST /session/token`). Nothing
 * rotates, so any number of pages may ask at once. Null when the user is gone.
 */
export async function accessTokenOfSession(userId: string, sessionId: string) {
  const user = await userById(userId);
  if (!user) return null;
  const { refresh_token: _unused, ...session } = await sessionBody(user, sessionId, "");
  return session;
}

// ---------------------------------------------------------------- grants

const credentials = z.object({
  email: z.string().trim().toLowerCase().optional(),
  password: z.string().optional(),
  // GoTrue's user metadata at sign-up; only the display name is kept.
  data: z.object({ display_name: z.string().max(1000).nullable().optional() }).optional(),
});
const emailFormat = z.string().email();

function parseCredentials(body: unknown) {
  const parsed = credentials.safeParse(body ?? {});
  if (!parsed.success) throw badRequest("invalid_input", "email and password must be strings");
  return parsed.data;
}

/** The display name of `data.display_name` (trimmed; null when empty or absent); 400 `invalid_display_name` when unfit. */
export function displayNameOf(raw: string | null | undefined): string | null {
  if (raw === undefined || raw === null) return null;
  const checked = checkDisplayName(raw);
  if (!checked.ok) {
    throw badRequest(
      "invalid_display_name",
      checked.reason === "too_long" ? `display_name must be at most ${DISPLAY_NAME_MAX} characters` : "display_name must not contain control characters",
    );
  }
  return checked.name;
}

/** `POST /auth/signup`: e-mail + password, or nothing for an anonymous user. */
export async function signUp(body: unknown): Promise<Session> {
  const { email, password, data } = parseCredentials(body);
  const displayName = displayNameOf(data?.display_name);
  if (!email && !password) return createSession({ email: null, passwordHash: null, isAnonymous: true, displayName });
  if (!email) throw badRequest("invalid_input", "email is required with a password");
  if (!emailFormat.safeParse(email).success) throw badRequest("invalid_email", "email is not a valid address");
  if (!password) throw badRequest("invalid_input", "password is required");
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
    throw new ApiError(422, "weak_password", `Password must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters`);
  }
  try {
    return await createSession({ email, passwordHash: await hashPassword(password), isAnonymous: false, displayName });
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError(422, "email_exists", "A user with this email address already exists");
    throw err;
  }
}

/** A new sign-in session with its first refresh token, as nested create data. */
function newSession() {
  const refreshToken = newRefreshToken();
  const id = randomUUID();
  return {
    refreshToken,
    create: { id, refreshTokens: { create: { tokenHash: hashToken(refreshToken), expiresAt: refreshExpiry() } } },
  };
}

/** Creates a user (when given its fields) and a first sign-in session. */
export async function createSession(user: {
  email: string | null;
  passwordHash: string | null;
  isAnonymous: boolean;
  legacyId?: string;
  displayName?: string | null;
}) {
  const session = newSession();
  const created = await db.user.create({
    data: { id: randomUUID(), ...user, lastSignInAt: new Date(), authSessions: { create: session.create } },
  });
  return sessionBody(created, session.create.id, session.refreshToken);
}

/** A new sign-in session for an existing user (password grant, internal legacy login, a recovery link). */
export async function createSessionForUser(userId: string, via?: "recovery"): Promise<Session> {
  const session = newSession();
  const [updated] = await db.$transaction([
    db.user.update({ where: { id: userId }, data: { lastSignInAt: new Date() } }),
    db.authSession.create({ data: { ...session.create, userId } }),
  ]);
  return sessionBody(updated, session.create.id, session.refreshToken, via);
}

/**
 * `POST /auth/token?grant_type=password`. `clientAddress` is the caller's
 * address (app/lib/api/client-address.ts; null when unknown): failures are
 * throttled per account and per address (sign-in-throttle.server.ts), and a
 * locked-out attempt is refused before any hashing.
 */
export async function passwordGrant(body: unknown, clientAddress: string | null): Promise<Session> {
  const { email, password } = parseCredentials(body);
  if (!email || !password) throw badRequest("invalid_input", "email and password are required");
  const attempt = await admitSignIn(email, clientAddress);
  const user = await db.user.findUnique({ where: { email } });
  const ok = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !user.passwordHash || !ok) throw badRequest("invalid_credentials", "Invalid login credentials");
  await attempt.succeeded();
  return createSessionForUser(user.id);
}

/**
 * `POST /auth/token?grant_type=refresh_token`: the token is exchanged once;
 * presenting an exchanged token again revokes its whole session.
 */
export async function refreshGrant(body: unknown): Promise<Session> {
  const parsed = z.object({ refresh_token: z.string().min(1) }).safeParse(body ?? {});
  if (!parsed.success) throw badRequest("invalid_input", "refresh_token is required");
  const stored = await db.refreshToken.findUnique({
    where: { tokenHash: hashToken(parsed.data.refresh_token) },
    include: { session: { include: { user: true } } },
  });
  const invalid = () => badRequest("refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");
  if (!stored || stored.session.revokedAt || stored.expiresAt < new Date()) throw invalid();

  // Exactly one caller can exchange a token, however many race for it.
  const claimed = await db.refreshToken.updateMany({
    where: { id: stored.id, rotatedAt: null },
    data: { rotatedAt: new Date() },
  });
  if (claimed.count === 0) {
    await db.authSession.update({ where: { id: stored.sessionId }, data: { revokedAt: new Date() } });
    await noteRevokedSessions([stored.sessionId]);
    throw badRequest("refresh_token_already_used", "Invalid Refresh Token: Already Used");
  }
  const refreshToken = newRefreshToken();
  await db.refreshToken.create({
    data: { tokenHash: hashToken(refreshToken), sessionId: stored.sessionId, expiresAt: refreshExpiry() },
  });
  return sessionBody(stored.session.user, stored.sessionId, refreshToken);
}

/** Whether `refreshToken` is one of the sign-in session's refresh tokens (rotated or not): proof of holding that session. */
export async function refreshTokenOfSession(refreshToken: string, sessionId: string | null): Promise<boolean> {
  if (!sessionId) return false;
  const row = await db.refreshToken.findUnique({ where: { tokenHash: hashToken(refreshToken) }, select: { sessionId: true } });
  return row?.sessionId === sessionId;
}

/** `POST /auth/logout?scope=global|local|others` (GoTrue's scopes; default global). */
export async function logout(identity: Identity, scope: string | null): Promise<void> {
  if (scope && !["global", "local", "others"].includes(scope)) {
    throw badRequest("invalid_input", "scope must be global, local or others");
  }
  const where =
    scope === "local"
      ? { id: identity.sessionId ?? "" }
      : scope === "others"
        ? { userId: identity.userId, NOT: { id: identity.sessionId ?? "" } }
        : { userId: identity.userId };
  const at = new Date();
  await db.authSession.updateMany({ where: { ...where, revokedAt: null }, data: { revokedAt: at } });
  await noteRevokedSessionsOf(identity.userId, at);
}

/** Tells every process's revocation view at once which of the user's sessions were revoked at `at` or later. */
export async function noteRevokedSessionsOf(userId: string, at: Date): Promise<void> {
  const rows = await db.authSession.findMany({ where: { userId, revokedAt: { gte: at } }, select: { id: true } });
  await noteRevokedSessions(rows.map((r) => r.id));
}

/**
 * `GET /auth/user`: the user behind a token whose session is still live. The
 * session's liveness comes from the revocation view (authenticateUserToken
 * already asked it; asked again here so the function stands on its own).
 */
export async function currentUser(identity: Identity) {
  if (identity.sessionId && (await isSessionRevoked(identity.sessionId))) return null;
  const user = await userById(identity.userId);
  return user ? userJson(user) : null;
}

// ---------------------------------------------------------------- verification

const externalJwks = env.AUTH_EXTERNAL_JWKS_URL ? createRemoteJWKSet(new URL(env.AUTH_EXTERNAL_JWKS_URL)) : null;
// External subjects already mapped to local users (bounded; evicts oldest).
const externalUsers = new Map<string, string>();

/** Verifies a user token from our own issuer or the configured external one; null when invalid or its session was revoked. */
export async function authenticateUserToken(token: string): Promise<Identity | null> {
  const identity = await verifyUserToken(token);
  // A revoked session's tokens stop working (in-memory view, no read per request).
  if (identity?.sessionId && (await isSessionRevoked(identity.sessionId))) return null;
  return identity;
}

/** Signature, issuer, audience, expiry and use only; says nothing about the session (see authenticateUserToken). */
export async function verifyUserToken(token: string): Promise<Identity | null> {
  if (externalJwks && unverifiedIssuer(token) === env.AUTH_EXTERNAL_ISSUER) return authenticateExternal(token);
  const claims = await verifyToken(token, { use: "user", audience: env.AUTH_AUDIENCE });
  if (!claims?.sub) return null;
  return {
    userId: claims.sub,
    sessionId: typeof claims.session_id === "string" ? claims.session_id : null,
    isAnonymous: claims.is_anonymous === true,
    email: typeof claims.email === "string" && claims.email ? claims.email : null,
    recovery: Array.isArray(claims.amr) && claims.amr.some((m) => (m as { method?: unknown } | null)?.method === "recovery"),
  };
}

async function authenticateExternal(token: string): Promise<Identity | null> {
  let payload;
  try {
    ({ payload } = await jwtVerify(token, externalJwks!, {
      issuer: env.AUTH_EXTERNAL_ISSUER,
      audience: env.AUTH_EXTERNAL_AUDIENCE,
      algorithms: ["RS256", "ES256"],
      requiredClaims: ["exp", "sub"],
    }));
  } catch {
    return null;
  }
  const subject = `${env.AUTH_EXTERNAL_ISSUER}|${payload.sub}`;
  const email = typeof payload.email === "string" && payload.email ? payload.email.toLowerCase() : null;
  const isAnonymous = payload.is_anonymous === true;
  let userId = externalUsers.get(subject);
  if (!userId) {
    userId = (await ensureExternalUser(subject, isAnonymous)).id;
    if (externalUsers.size >= 10_000) externalUsers.delete(externalUsers.keys().next().value!);
    externalUsers.set(subject, userId);
  }
  return { userId, sessionId: null, isAnonymous, email };
}

async function ensureExternalUser(subject: string, isAnonymous: boolean) {
  const existing = await db.user.findUnique({ where: { externalSubject: subject } });
  if (existing) return existing;
  try {
    return await db.user.create({ data: { id: randomUUID(), externalSubject: subject, isAnonymous } });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    return db.user.findUniqueOrThrow({ where: { externalSubject: subject } });
  }
}
