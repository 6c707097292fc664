// Messages that leave the service (e-mails, webhooks) are written here first
// and delivered by the outbox worker, so a slow or failing receiver never
// blocks or fails the request that caused them.
import { db, type Prisma } from "~/db.server";
import { isUniqueViolation } from "~/db/errors";
import type { Op } from "~/db/sql.server";
import { badRequest } from "~/lib/api/errors";
import { headOfMailQueue, queueMessage, queueMessages, setPace, takePace } from "./outbox.sql.server";

export interface OutboxEntry {
  /** `email`, `webhook`, or the kind of a job a domain registered (worker.server.ts registerOutboxJob). */
  kind: string;
  topic: string;
  payload: Prisma.InputJsonValue;
  /** Messages with the same key are sent once, however many instances try. */
  dedupKey?: string;
  /** Not sent before this time (a send slot, reserveSendSlots); default now. */
  due?: Date;
}

/** Queues a message; false when one with the same dedupKey was queued before. */
export async function enqueue(entry: OutboxEntry): Promise<boolean> {
  try {
    await db.outboxMessage.create({
      data: { kind: entry.kind, topic: entry.topic, payload: entry.payload, dedupKey: entry.dedupKey ?? null },
    });
    return true;
  } catch (err) {
    if (entry.dedupKey && isUniqueViolation(err)) return false;
    throw err;
  }
}

/**
 * Queues a message as a step of a transaction (app/db/sql.server.ts), so it
 * commits with what caused it or not at all; false when one with the same
 * dedupKey was queued before.
 */
export function* enqueueStep(entry: OutboxEntry): Op<boolean> {
  const at = new Date();
  return (yield* queueMessage(entry.kind, entry.topic, entry.dedupKey ?? null, JSON.stringify(entry.payload), at, entry.due ?? at)) > 0;
}

/** Queues many messages as one step of a transaction (a fan-out's batch): how many were new. */
export function* enqueueManyStep(entries: Array<OutboxEntry & { due: Date }>): Op<number> {
  const at = new Date();
  return yield* queueMessages(
    entries.map((e) => ({ kind: e.kind, topic: e.topic, dedupKey: e.dedupKey ?? null, payload: JSON.stringify(e.payload), due: e.due })),
    at,
  );
}

/**
 * `count` send slots of an e-mail lane (a shop's alerts), `60 s / perMinute`
 * apart, as a step of the transaction that queues the e-mails: from where
 * the lane's earlier slots end, so the lane never gets more than its rate
 * however many fan-outs and instances queue into it. The worker sends oldest
 * due first, so a lane's backlog lies in the future and other lanes' e-mails
 * go out beside it. When the worker is behind (due e-mails wait), a lane
 * with nothing waiting starts at the head of the queue rather than now: it
 * goes next instead of behind every other lane's backlog.
 */
export function* reserveSendSlots(lane: string, count: number, perMinute: number, now = new Date()): Op<Date[]> {
  if (count <= 0) return [];
  const gapMs = 60_000 / perMinute;
  const head = yield* headOfMailQueue();
  const from = head && head < now ? head : now;
  const free = yield* takePace(lane, new Date(0));
  const start = Math.max(free.getTime(), from.getTime());
  yield* setPace(lane, new Date(Math.ceil(start + count * gapMs)));
  return Array.from({ length: count }, (_, i) => new Date(Math.ceil(start + i * gapMs)));
}

export const OUTBOX_STATUSES = ["pending", "sent", "failed"] as const;

/** `wish outbox`: the newest messages, payload included, for operators. */
export async function listOutbox({ status, limit = 50 }: { status?: string; limit?: number } = {}) {
  if (status !== undefined && !(OUTBOX_STATUSES as readonly string[]).includes(status)) {
    throw badRequest("invalid_status", `status must be one of ${OUTBOX_STATUSES.join(", ")}`);
  }
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw badRequest("invalid_input", "limit must be from 1 to 1000");
  const rows = await db.outboxMessage.findMany({
    where: status ? { status } : {},
    orderBy: { id: "desc" },
    take: limit,
  });
  return {
    messages: rows.map((m) => ({
      id: m.id,
      kind: m.kind,
      topic: m.topic,
      status: m.status,
      attempts: m.attempts,
      created_at: m.createdAt.toISOString(),
      sent_at: m.sentAt?.toISOString() ?? null,
      next_attempt_at: m.status === "pending" ? m.nextAttemptAt.toISOString() : null,
      last_error: m.lastError,
      payload: m.payload,
    })),
  };
}
