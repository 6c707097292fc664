// The outbox's statement: queueing a message as a step of the transaction
// that caused it (outbox.server.ts enqueueStep).
import type { OutboxMessage } from "~/db.server";
import { run, statement } from "~/db/sql.server";

// A message with a dedupKey that is already queued is skipped, not an error: the transaction goes on.
const QUEUE_MESSAGE = statement(
  "outbox_queue",
  `INSERT INTO "OutboxMessage" ("kind", "topic", "dedupKey", "payload", "status", "attempts", "nextAttemptAt", "createdAt")
   VALUES ($1, $2, $3, $4, 'pending', 0, $5, $5)
   ON CONFLICT ("dedupKey") DO NOTHING`,
);

/** Queues a pending message (its payload as JSON text): 1, or 0 when its dedupKey is queued already. */
export const queueMessage = (
  kind: OutboxMessage["kind"],
  topic: OutboxMessage["topic"],
  dedupKey: OutboxMessage["dedupKey"],
  payload: string,
  at: Date,
) => run(QUEUE_MESSAGE, kind, topic, dedupKey, payload, at);
