// The outbox's statements: queueing a message as a step of the transaction
// that caused it (outbox.server.ts enqueueStep), and the send slots of a
// lane of e-mails (reserveSendSlots).
import type { OutboxMessage, SendPace } from "~/db.server";
import { one, run, statement, type Param, type Statement } from "~/db/sql.server";

// A message with a dedupKey that is already queued is skipped, not an error: the transaction goes on.
const QUEUE_MESSAGE = statement(
  "outbox_queue",
  `INSERT INTO "OutboxMessage" ("kind", "topic", "dedupKey", "payload", "status", "attempts", "nextAttemptAt", "createdAt")
   VALUES ($1, $2, $3, $4, 'pending', 0, $6, $5)
   ON CONFLICT ("dedupKey") DO NOTHING`,
);

/** Queues a pending message (its payload as JSON text), due at `due` (default `at`): 1, or 0 when its dedupKey is queued already. */
export const queueMessage = (
  kind: OutboxMessage["kind"],
  topic: OutboxMessage["topic"],
  dedupKey: OutboxMessage["dedupKey"],
  payload: string,
  at: Date,
  due: Date = at,
) => run(QUEUE_MESSAGE, kind, topic, dedupKey, payload, at, due);

const queueMany = new Map<number, Statement<unknown>>();
/** Messages per multi-row statement (6 parameters each). */
const MESSAGES_PER_STATEMENT = 100;

/** Queues pending messages, up to 100 in one statement; duplicates of a queued dedupKey are skipped. Returns how many were queued. */
export function* queueMessages(
  messages: Array<{ kind: OutboxMessage["kind"]; topic: OutboxMessage["topic"]; dedupKey: OutboxMessage["dedupKey"]; payload: string; due: Date }>,
  at: Date,
) {
  let queued = 0;
  for (let i = 0; i < messages.length; i += MESSAGES_PER_STATEMENT) {
    const chunk = messages.slice(i, i + MESSAGES_PER_STATEMENT);
    let stmt = queueMany.get(chunk.length);
    if (!stmt) {
      const values = chunk.map((_, r) => `($${r * 5 + 2}, $${r * 5 + 3}, $${r * 5 + 4}, $${r * 5 + 5}, 'pending', 0, $${r * 5 + 6}, $1)`).join(", ");
      stmt = statement(`outbox_queue_many_${chunk.length}`, `INSERT INTO "OutboxMessage" ("kind", "topic", "dedupKey", "payload", "status", "attempts", "nextAttemptAt", "createdAt") VALUES ${values} ON CONFLICT ("dedupKey") DO NOTHING`);
      queueMany.set(chunk.length, stmt);
    }
    const params: Param[] = [at, ...chunk.flatMap((m) => [m.kind, m.topic, m.dedupKey, m.payload, m.due])];
    queued += yield* run(stmt, ...params);
  }
  return queued;
}

// The e-mail the worker takes next (oldest due first); index (status, nextAttemptAt).
const HEAD_OF_MAIL_QUEUE = statement<{ head: Date | null }>(
  "outbox_mail_head",
  `SELECT MIN("nextAttemptAt") AS "head" FROM "OutboxMessage" WHERE "status" = 'pending' AND "kind" = 'email'`,
  { head: "date" },
);

/** The due time of the first pending e-mail in the worker's order, or null when none is pending. */
export function* headOfMailQueue() {
  return (yield* one(HEAD_OF_MAIL_QUEUE))?.head ?? null;
}

// Creates the lane or takes its row as it is; on PostgreSQL the row stays locked to the end of the
// transaction, so two fan-outs of one lane take their slots one after the other.
const TAKE_PACE = statement<Pick<SendPace, "nextAt">>(
  "send_pace_take",
  `INSERT INTO "SendPace" ("lane", "nextAt") VALUES ($1, $2)
   ON CONFLICT ("lane") DO UPDATE SET "lane" = "SendPace"."lane"
   RETURNING "nextAt"`,
  { nextAt: "date" },
);

const SET_PACE = statement("send_pace_set", `UPDATE "SendPace" SET "nextAt" = $2 WHERE "lane" = $1`);

/** The lane's first free slot (a new lane: `fresh`), its row locked until the transaction ends. */
export function* takePace(lane: SendPace["lane"], fresh: Date) {
  return (yield* one(TAKE_PACE, lane, fresh))!.nextAt;
}

export const setPace = (lane: SendPace["lane"], nextAt: Date) => run(SET_PACE, lane, nextAt);
