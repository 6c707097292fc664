// Messages that leave the service (e-mails, webhooks) are written here first
// and delivered by the outbox worker, so a slow or failing receiver never
// blocks or fails the request that caused them.
import { db, type Prisma } from "~/db.server";
import { isUniqueViolation } from "~/db/errors";

export interface OutboxEntry {
  kind: "email" | "webhook";
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
