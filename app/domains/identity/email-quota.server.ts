// E-mails to addresses someone typed (alert confirmation, password recovery,
// change of e-mail) are counted per recipient and per client address unit
// per UTC day, across all accounts (docs/identity.md "E-mail to typed
// addresses"), so neither one account nor many can turn a form into a way to
// mail strangers. Each count is one conditional upsert (email-quota.sql.server.ts);
// callers run it as a step of the transaction that queues the e-mail, so an
// e-mail refused by either count leaves no count behind, and a count never
// outlives a rolled-back e-mail.
import { createHash } from "node:crypto";
import { db } from "~/db.server";
import { env } from "~/env.server";
import type { Op } from "~/db/sql.server";
import { ApiError } from "~/lib/api/errors";
import { addressUnit } from "~/lib/api/client-address";
import { countEmail } from "./email-quota.sql.server";

export const utcDay = (at = new Date()) => at.toISOString().slice(0, 10);

export const recipientKey = (email: string) => `to:${createHash("sha256").update(email.trim().toLowerCase()).digest("hex")}`;
export const clientKey = (address: string) => `ip:${addressUnit(address)}`;

/** Thrown by admitEmail when the recipient or the client had their day's e-mails: 429 `too_many_requests`. */
export class EmailQuotaExceeded extends ApiError {
  constructor() {
    super(429, "too_many_requests", "Too many e-mails to this address today; try again tomorrow");
  }
}

/**
 * Counts one e-mail to `to` caused by `clientAddress` (null when unknown: the
 * recipient only), as a transaction step; throws EmailQuotaExceeded, which
 * rolls the transaction back, when either day is full.
 */
export function* admitEmail(to: string, clientAddress: string | null, at = new Date()): Op<void> {
  const day = utcDay(at);
  // The client first: one lock order for every caller.
  if (clientAddress && (yield* countEmail(clientKey(clientAddress), day, env.EMAILS_PER_CLIENT_PER_DAY)) === 0) throw new EmailQuotaExceeded();
  if ((yield* countEmail(recipientKey(to), day, env.EMAILS_PER_RECIPIENT_PER_DAY)) === 0) throw new EmailQuotaExceeded();
}

/** Deletes the counts of days before yesterday (UTC); returns how many. */
export async function pruneEmailQuota(now = new Date()): Promise<number> {
  const cutoff = utcDay(new Date(now.getTime() - 86_400_000));
  const { count } = await db.emailQuota.deleteMany({ where: { day: { lt: cutoff } } });
  return count;
}
