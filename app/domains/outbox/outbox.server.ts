// Messages that leave the service (e-mails, webhooks) are written here first
// and delivered by the outbox worker, so a slow or failing receiver never
// blocks or fails the request that caused them.
import { db, type Prisma } from "~/db.server";
import { isUniqueViolation } from "~/db/errors";
import type { Op } from "~/db/sql.server";
import { badRequest } from "~/lib/api/errors";
import { queueMessage } from "./outbox.sql.server";

export interface OutboxEntry {
  /** `email`, `webhook`, or the kind of a job a domain registered (worker.server.ts registerOutboxJob). */
  kind: string;
  topic: string;
  payload: Prisma.InputJsonValue;
  /** Messages with the same key are sent once, however many instances try. */
  dedupKey?: string;
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
  return (yield* queueMessage(entry.kind, entry.topic, entry.dedupKey ?? null, JSON.stringify(entry.payload), new Date())) > 0;
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
