// One-time e-mail links of an account (account.server.ts): written in the
// transaction that queues their e-mail, so a link exists only when its
// e-mail was admitted by the quota and queued.
import { run, statement } from "~/db/sql.server";

const INSERT = statement(
  "account_token_insert",
  `INSERT INTO "AccountToken" ("tokenHash", "userId", "kind", "newEmail", "expiresAt", "createdAt") VALUES ($1, $2, $3, $4, $5, $6)`,
);

export const insertAccountToken = (t: { tokenHash: string; userId: string; kind: "recovery" | "email_change"; newEmail: string | null; expiresAt: Date }, at: Date) =>
  run(INSERT, t.tokenHash, t.userId, t.kind, t.newEmail, t.expiresAt, at);
