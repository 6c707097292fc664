// Whether the key behind a widget token still works (SPEC 5 rule 6: revoke
// is immediate; a rotated key's old value works for the grace period), known
// to every process without a database read per request. Each process keeps
// the keys that were revoked or rotated recently in memory: loaded by a poll
// every REVOCATION_POLL_MS, and changed at once by a change signal when any
// process (a worker, another instance, the CLI) revokes, rotates or deletes a
// key (app/db/change-signals.server.ts). A key not in that view is active.
// Older changes need no entry: every widget token minted before them has
// expired.
import { db } from "~/db.server";
import { env } from "~/env.server";
import { catchUp, onChange, signalChange, signalsLive } from "~/db/change-signals.server";
import { createPoller } from "~/lib/poller.server";
import { onSiblingMessage, tellSiblings } from "~/lib/sibling-bus.server";

// Longer than a widget token lives (10 minutes) plus generous clock skew.
const HORIZON_MS = 20 * 60_000;

interface KeyState {
  status: string;
  /** For a rotated key: when its old value stops working (ms). */
  graceExpiresAt: number | null;
}

let changed = new Map<number, KeyState>();
// Changes this instance made itself, kept until a poll has seen them.
const ownChanges = new Map<number, { state: KeyState; notedAt: number }>();

const stateOf = (row: { status: string; graceExpiresAt: Date | null }): KeyState => ({
  status: row.status,
  graceExpiresAt: row.graceExpiresAt?.getTime() ?? null,
});

// Signals that said "reload" and the last of them a successful poll started after: the view is trusted only when they agree.
let reloadsAsked = 0;
let reloadsDone = 0;

const poller = createPoller("key status", env.REVOCATION_POLL_MS, async () => {
  const asked = reloadsAsked;
  const since = new Date(Date.now() - HORIZON_MS);
  const rows = await db.apiKey.findMany({
    where: { OR: [{ revokedAt: { gt: since } }, { graceExpiresAt: { gt: since } }] },
    select: { id: true, status: true, graceExpiresAt: true },
  });
  const next = new Map(rows.map((r) => [r.id, stateOf(r)]));
  for (const [id, own] of ownChanges) {
    if (next.get(id)?.status === own.state.status || Date.now() - own.notedAt > HORIZON_MS) ownChanges.delete(id);
    else next.set(id, own.state);
  }
  changed = next;
  reloadsDone = asked;
});

export const startKeyStatusPoll = () => poller.start();
export const stopKeyStatusPoll = () => poller.stop();

/** Records a key's new status in this process and tells every other one (resolves once told). */
export function noteKeyStatus(id: number, row: { status: string; graceExpiresAt: Date | null }): Promise<void> {
  const state = stateOf(row);
  remember(id, state);
  tellSiblings("key-status", { id, state });
  return signalChange("key-status", { id, state });
}

function remember(id: number, state: KeyState): void {
  changed.set(id, state);
  ownChanges.set(id, { state, notedAt: Date.now() });
}

// The other workers of this instance learn it at once, as this one did.
onSiblingMessage<{ id: number; state: KeyState }>("key-status", ({ id, state }) => remember(id, state));
// Other processes: with the change itself (PostgreSQL), or told to reload (SQLite, or a reconnected listener).
onChange<{ id: number; state: KeyState }>("key-status", {
  apply: ({ id, state }) => remember(id, state),
  reload() {
    reloadsAsked++;
    void poller.refresh();
  },
});

/** The view is complete: polled recently, after the last reload signal, and no signal can have been missed. */
const trusted = () => poller.isFresh() && reloadsDone === reloadsAsked && signalsLive();

function works(state: KeyState | undefined, now: number): boolean {
  if (!state || state.status === "active") return true;
  return state.status === "rotated" && state.graceExpiresAt !== null && state.graceExpiresAt > now;
}

/**
 * True while widget tokens of this key may be used: the key is active, or
 * rotated and inside its grace period. From memory while the view is
 * trusted, else from the database (a deleted key does not work).
 */
export async function widgetKeyWorks(apiKeyId: number, now = Date.now()): Promise<boolean> {
  catchUp();
  if (trusted()) return works(changed.get(apiKeyId), now);
  const row = await db.apiKey.findUnique({ where: { id: apiKeyId }, select: { status: true, graceExpiresAt: true } });
  return row !== null && works(stateOf(row), now);
}
