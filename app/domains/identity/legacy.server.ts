// Accounts of the legacy app (SPEC 4.2, internal routes): a legacy session is
// mapped to an anonymous user whose User.legacyId is the legacy identifier.
// Only the service's own back end calls these (auth mode "service").
import { db } from "~/db.server";
import { isUniqueViolation } from "~/db/errors";
import { ApiError, notFound } from "~/lib/api/errors";
import { errorFields, log } from "~/lib/log.server";
import { createSession, createSessionForUser, type Session } from "./identity.server";

const authFailed = () => new ApiError(500, "auth_failed", "Could not issue a session");

async function sessionFor(userId: string): Promise<Session> {
  try {
    return await createSessionForUser(userId);
  } catch (err) {
    log.error("legacy session failed", { userId, ...errorFields(err) });
    throw authFailed();
  }
}

/** The anonymous user of a legacy id, created on first use, with a new session. Safe to repeat. */
export async function createAnonymousUser(legacyId: string): Promise<{ userId: string; session: Session }> {
  let existing;
  try {
    existing = await db.user.findUnique({ where: { legacyId }, select: { id: true } });
  } catch (err) {
    log.error("legacy user lookup failed", errorFields(err));
    throw new ApiError(500, "db_insert_failed", "Could not look up the legacy user");
  }
  if (existing) return { userId: existing.id, session: await sessionFor(existing.id) };
  try {
    const session = await createSession({ email: null, passwordHash: null, isAnonymous: true, legacyId });
    return { userId: session.user.id, session };
  } catch (err) {
    // Whether the user row exists now tells which half failed: the insert, or issuing the session.
    const stored = await db.user.findUnique({ where: { legacyId }, select: { id: true } }).catch(() => null);
    // Lost a race with a concurrent call for the same legacy id: use the user it created.
    if (stored && isUniqueViolation(err)) return { userId: stored.id, session: await sessionFor(stored.id) };
    log.error("anonymous user creation failed", errorFields(err));
    throw stored ? authFailed() : new ApiError(500, "db_insert_failed", "Could not create the anonymous user");
  }
}

/** A new session for the user migrated from a legacy temporary account. */
export async function loginLegacyUser(identifier: string): Promise<{ userId: string; session: Session }> {
  let user;
  try {
    user = await db.user.findUnique({ where: { legacyId: identifier }, select: { id: true } });
  } catch (err) {
    log.error("legacy user lookup failed", errorFields(err));
    throw authFailed();
  }
  if (!user) throw notFound("no_legacy_user", "No user for this legacy identifier");
  return { userId: user.id, session: await sessionFor(user.id) };
}

/** Deprecated: marks a legacy user as migrated (the first time is kept). */
export async function markLegacyUserMigrated(identifier: string): Promise<void> {
  try {
    const user = await db.user.findUnique({ where: { legacyId: identifier }, select: { id: true, migratedAt: true } });
    if (!user) throw notFound("no_legacy_user", "No user for this legacy identifier");
    if (user.migratedAt) return;
    await db.user.update({ where: { id: user.id }, data: { migratedAt: new Date() }, select: { id: true } });
  } catch (err) {
    if (err instanceof ApiError) throw err;
    log.error("legacy migration flag failed", errorFields(err));
    throw new ApiError(500, "flag_update_failed", "Could not mark the legacy user as migrated");
  }
}
