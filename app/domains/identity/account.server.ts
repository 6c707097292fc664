// Account basics of the identity provider, in GoTrue's shape
// (docs/identity.md "Account basics"): password recovery by a one-time
// e-mail link, changing the password, the e-mail address (confirmed by a
// link to the new address) and the display name.
//
// Links carry a random token in the URL fragment of a page on APP_URL (never
// sent to a server by the browser, never in a log); only its SHA-256 is
// stored. A token works once and for an hour. Setting a password ends every
// other sign-in session of the account, and with them their cookies, refresh
// tokens and grants.
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { db } from "~/db.server";
import { isUniqueViolation } from "~/db/errors";
import { env } from "~/env.server";
import { transaction } from "~/db/sql.server";
import { ApiError, badRequest, forbidden, unauthorized } from "~/lib/api/errors";
import { log } from "~/lib/log.server";
import { enqueueStep } from "~/domains/outbox/outbox.server";
import type { QueuedMail } from "~/domains/outbox/worker.server";
import { createSessionForUser, displayNameOf, noteRevokedSessionsOf, userJson, type Identity, type Session } from "./identity.server";
import { userById } from "./identity.sql.server";
import { admitEmail, EmailQuotaExceeded } from "./email-quota.server";
import { insertAccountToken } from "./account-tokens.sql.server";
import { LANGS, type Lang } from "~/lib/lang";
import { hashPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, verifyPassword } from "./passwords.server";
import { admitSignIn } from "./sign-in-throttle.server";
import { requireLiveSession } from "./session-revocations.server";

/** How long a recovery or confirmation link works. */
export const LINK_TTL_MS = 60 * 60_000;

export type LinkKind = "recovery" | "email_change";

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
const emailFormat = z.string().trim().toLowerCase().max(320).email();
const langSchema = z.enum(LANGS).optional();

/** The page a link opens: the token in the fragment, which browsers never send. */
const linkUrl = (kind: LinkKind, lang: Lang, token: string) =>
  `${env.APP_URL}/${lang}/account/${kind === "recovery" ? "reset" : "confirm-email"}#token=${token}`;

/** The e-mail with a link (a new password, a new address), as its model: the template is app/pages/emails/account-link.tsx. */
export interface AccountLinkMailModel {
  template: "account-link";
  lang: Lang;
  kind: LinkKind;
  link: string;
}

function mailOf(kind: LinkKind, lang: Lang, to: string, link: string): QueuedMail {
  const model: AccountLinkMailModel = { template: "account-link", lang, kind, link };
  return { to, model };
}

/**
 * Writes a link's token and queues its e-mail in one transaction, after the
 * quota admitted the e-mail (EmailQuotaExceeded otherwise, nothing written).
 */
async function sendLink(kind: LinkKind, userId: string, to: string, newEmail: string | null, lang: Lang, clientAddress: string | null) {
  const token = randomBytes(32).toString("base64url");
  const at = new Date();
  const mail = mailOf(kind, lang, to, linkUrl(kind, lang, token));
  await transaction(
    (function* () {
      yield* admitEmail(to, clientAddress, at);
      yield* insertAccountToken({ tokenHash: hashToken(token), userId, kind, newEmail, expiresAt: new Date(at.getTime() + LINK_TTL_MS) }, at);
      yield* enqueueStep({ kind: "email", topic: `account:${userId}`, payload: mail });
    })(),
  );
}

// ---------------------------------------------------------------- recovery

const recoverBody = z.object({ email: z.string().max(1000), lang: langSchema });

/**
 * `POST /auth/recover {email}`: always `{}` (whether the address has an
 * account, and whether the quota let the e-mail go, are never told).
 */
export async function recover(body: unknown, clientAddress: string | null): Promise<Record<string, never>> {
  const parsed = recoverBody.safeParse(body ?? {});
  if (!parsed.success) throw badRequest("invalid_input", "email is required");
  const email = emailFormat.safeParse(parsed.data.email);
  if (!email.success) throw badRequest("invalid_email", "email is not a valid address");
  const user = await db.user.findUnique({ where: { email: email.data }, select: { id: true, isAnonymous: true } });
  if (!user || user.isAnonymous) return {};
  try {
    await sendLink("recovery", user.id, email.data, null, parsed.data.lang ?? "en", clientAddress);
  } catch (err) {
    if (!(err instanceof EmailQuotaExceeded)) throw err;
    log.info("recovery e-mail over the quota", { reason: "email_quota" });
  }
  return {};
}

// ---------------------------------------------------------------- verify

const verifyBody = z.object({ type: z.enum(["recovery", "email_change"]), token: z.string().min(1).max(200) });

const expired = () => new ApiError(403, "otp_expired", "The link is invalid or has expired");

/**
 * `POST /auth/verify {type, token}`: uses a link once. Recovery opens a
 * sign-in session that may set a new password without the current one;
 * email_change switches the address (409 `email_exists` when another account
 * took it meanwhile) and opens a session too, as GoTrue does.
 */
export async function verify(body: unknown): Promise<Session> {
  const parsed = verifyBody.safeParse(body ?? {});
  if (!parsed.success) throw badRequest("invalid_input", "type (recovery or email_change) and token are required");
  const { type, token } = parsed.data;
  const tokenHash = hashToken(token);
  const now = new Date();
  const row = await db.accountToken.findUnique({ where: { tokenHash } });
  if (!row || row.kind !== type || row.usedAt || row.expiresAt <= now) throw expired();
  if (type === "email_change") return switchEmail(row.userId, row.newEmail, tokenHash, now);
  // Exactly one caller can use a link, however many race for it.
  const claimed = await db.accountToken.updateMany({ where: { tokenHash, usedAt: null }, data: { usedAt: now } });
  if (claimed.count === 0) throw expired();
  return createSessionForUser(row.userId, "recovery");
}

async function switchEmail(userId: string, newEmail: string | null, tokenHash: string, now: Date): Promise<Session> {
  if (!newEmail) throw expired();
  try {
    await db.$transaction(async (tx) => {
      const claimed = await tx.accountToken.updateMany({ where: { tokenHash, usedAt: null }, data: { usedAt: now } });
      if (claimed.count === 0) throw expired();
      await tx.user.update({ where: { id: userId }, data: { email: newEmail } });
      // Other links for an address change are void once one was used.
      await tx.accountToken.updateMany({ where: { userId, kind: "email_change", usedAt: null }, data: { usedAt: now } });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError(409, "email_exists", "Another account uses this address by now");
    throw err;
  }
  return createSessionForUser(userId);
}

// ---------------------------------------------------------------- PUT /auth/user

const updateBody = z.object({
  email: z.string().max(1000).optional(),
  password: z.string().optional(),
  current_password: z.string().max(MAX_PASSWORD_LENGTH).optional(),
  data: z.object({ display_name: z.string().max(1000).nullable().optional() }).optional(),
  lang: langSchema,
});

/**
 * `PUT /auth/user`: any of a new password (every other session ends) and a
 * new e-mail address (a confirmation link goes there; the address changes
 * when it is opened), both with the current password unless the session came
 * from a recovery link, and `data.display_name`. Answers the user.
 */
export async function updateUser(identity: Identity, body: unknown, clientAddress: string | null) {
  const parsed = updateBody.safeParse(body ?? {});
  if (!parsed.success) throw badRequest("invalid_input", "email, password, current_password must be strings; data an object");
  const input = parsed.data;
  await requireLiveSession(identity);
  const user = await db.user.findUnique({ where: { id: identity.userId } });
  if (!user) throw unauthorized("The user no longer exists");
  const wantsCredentials = input.password !== undefined || input.email !== undefined;
  if (wantsCredentials && (user.isAnonymous || !user.email)) {
    throw forbidden("account_required", "A guest account has no password or address to change; sign up instead");
  }
  // Checked before anything changes, so a refused part changes nothing.
  const displayName = input.data && "display_name" in input.data ? displayNameOf(input.data.display_name) : undefined;
  let newEmail: string | null = null;
  if (input.email !== undefined) {
    const email = emailFormat.safeParse(input.email);
    if (!email.success) throw badRequest("invalid_email", "email is not a valid address");
    if (email.data !== user.email) newEmail = email.data;
  }
  if (input.password !== undefined && (input.password.length < MIN_PASSWORD_LENGTH || input.password.length > MAX_PASSWORD_LENGTH)) {
    throw new ApiError(422, "weak_password", `Password must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters`);
  }
  if (newEmail && (await db.user.findUnique({ where: { email: newEmail }, select: { id: true } }))) {
    throw new ApiError(422, "email_exists", "A user with this email address already exists");
  }
  // A new password or address needs the current password (unless the session came from a recovery
  // link): a stolen session must not be able to take the account over by either.
  if ((input.password !== undefined || newEmail) && !identity.recovery) await checkCurrentPassword(user, input.current_password, clientAddress);
  if (input.password !== undefined) await setPassword(identity, user.id, input.password);
  if (displayName !== undefined) await db.user.update({ where: { id: user.id }, data: { displayName } });
  if (newEmail) await sendLink("email_change", user.id, newEmail, newEmail, input.lang ?? "en", clientAddress);
  const fresh = await userById(user.id);
  if (!fresh) throw unauthorized("The user no longer exists");
  return { ...userJson(fresh), ...(newEmail ? { new_email: newEmail } : {}) };
}

async function checkCurrentPassword(user: { email: string | null; passwordHash: string | null }, currentPassword: string | undefined, clientAddress: string | null) {
  if (!currentPassword) throw badRequest("current_password_required", "current_password is required to change the password or the e-mail address");
  // Guessing the current password is throttled as sign-ins are.
  const attempt = await admitSignIn(user.email!, clientAddress);
  if (!user.passwordHash || !(await verifyPassword(currentPassword, user.passwordHash))) {
    throw badRequest("invalid_credentials", "The current password is not right");
  }
  await attempt.succeeded();
}

async function setPassword(identity: Identity, userId: string, password: string) {
  const passwordHash = await hashPassword(password);
  const at = new Date();
  await db.$transaction([
    db.user.update({ where: { id: userId }, data: { passwordHash } }),
    // Every other sign-in session ends: a stolen cookie or refresh token stops working.
    db.authSession.updateMany({ where: { userId, revokedAt: null, NOT: { id: identity.sessionId ?? "" } }, data: { revokedAt: at } }),
    // Recovery links not yet used are void once the password changed.
    db.accountToken.updateMany({ where: { userId, kind: "recovery", usedAt: null }, data: { usedAt: at } }),
  ]);
  await noteRevokedSessionsOf(userId, at);
}

/** What My lists' account settings show. */
export async function accountSettingsOf(userId: string) {
  const user = await userById(userId);
  return user ? { email: user.email, isAnonymous: user.isAnonymous, displayName: user.displayName } : null;
}

/** Drops used and expired links (the prune job). */
export async function pruneAccountTokens(now = new Date()): Promise<number> {
  const { count } = await db.accountToken.deleteMany({ where: { expiresAt: { lt: new Date(now.getTime() - 86_400_000) } } });
  return count;
}
