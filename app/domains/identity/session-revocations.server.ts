// Which sign-in sessions were revoked (logout, refresh-token reuse, account
// migration), known to every process without a database read per request.
// Each process keeps the sessions revoked within an access token's lifetime
// in memory: loaded by a poll every REVOCATION_POLL_MS, and changed at once by
// a change signal when any process revokes one (app/db/change-signals.server.ts),
// so a revoked session's access tokens stop working everywhere from the next
// request. Older revocations need no entry: the tokens of those sessions
// have expired. Routes that mint credentials or change account ownership do
// not rely on this view: they read the session itself (requireLiveSession).
import { db } from "~/db.server";
import { env } from "~/env.server";
import { unauthorized } from "~/lib/api/errors";
import { catchUp, onChange, signalChange, signalsLive } from "~/db/change-signals.server";
import { createPoller } from "~/lib/poller.server";
import { onSiblingMessage, tellSiblings } from "~/lib/sibling-bus.server";

// An access token's lifetime plus generous clock skew between instances.
const HORIZON_MS = env.ACCESS_TOKEN_TTL_SECONDS * 1000 + 5 * 60_000;

let revoked = new Set<string>();
// Revocations this instance made itself, kept until a poll has seen them (a
// poll under way when they were written may not include them).
const ownRevocations = new Map<string, number>();

// Signals that said "reload" and the last of them a successful poll started after: the view is trusted only when they agree.
let reloadsAsked = 0;
let reloadsDone = 0;

const poller = createPoller("session revocations", env.REVOCATION_POLL_MS, async () => {
  const asked = reloadsAsked;
  const rows = await db.authSession.findMany({
    where: { revokedAt: { gt: new Date(Date.now() - HORIZON_MS) } },
    select: { id: true },
  });
  const next = new Set(rows.map((r) => r.id));
  for (const [id, notedAt] of ownRevocations) {
    if (next.has(id) || Date.now() - notedAt > HORIZON_MS) ownRevocations.delete(id);
    else next.add(id);
  }
  revoked = next;
  reloadsDone = asked;
});

export const startSessionRevocationPoll = () => poller.start();
export const stopSessionRevocationPoll = () => poller.stop();

/** Marks sessions revoked in this process at once, and tells every other one (resolves once told). */
export async function noteRevokedSessions(ids: readonly string[]): Promise<void> {
  remember(ids);
  if (ids.length === 0) return;
  tellSiblings("revoked-sessions", ids);
  await signalChange("revoked-sessions", ids);
}

function remember(ids: readonly string[]): void {
  for (const id of ids) {
    revoked.add(id);
    ownRevocations.set(id, Date.now());
  }
}

// The other workers of this instance learn it at once, as this one did.
onSiblingMessage<string[]>("revoked-sessions", remember);
// Other processes: with the ids (PostgreSQL), or told to reload (SQLite, or a reconnected listener).
onChange<string[]>("revoked-sessions", {
  apply: remember,
  reload() {
    reloadsAsked++;
    void poller.refresh();
  },
});

/** The view is complete: polled recently, after the last reload signal, and no signal can have been missed. */
const trusted = () => poller.isFresh() && reloadsDone === reloadsAsked && signalsLive();

/** True when the session was revoked. From memory while the view is trusted, else from the database. */
export async function isSessionRevoked(sessionId: string): Promise<boolean> {
  catchUp();
  if (trusted()) return revoked.has(sessionId);
  return !(await isSessionLive(sessionId));
}

/** Reads the session itself: it exists and is not revoked. */
export async function isSessionLive(sessionId: string): Promise<boolean> {
  const session = await db.authSession.findUnique({ where: { id: sessionId }, select: { revokedAt: true } });
  return session !== null && session.revokedAt === null;
}

/**
 * For routes that mint credentials or change account ownership: 401
 * `unauthorized` unless the token's sign-in session is live right now.
 * Tokens of an external issuer have no session here and pass.
 */
export async function requireLiveSession(identity: { sessionId: string | null }): Promise<void> {
  if (identity.sessionId && !(await isSessionLive(identity.sessionId))) {
    throw unauthorized("This sign-in session has ended");
  }
}
