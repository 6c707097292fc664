// Shoppers' consent to alerts on their saved products: an opt-in on "My
// lists", confirmed by a signed link sent to the address (double opt-in), and
// withdrawn by one click in any alert e-mail (signed link, no sign-in) or on
// "My lists". The address is kept only while consent stands: withdrawing
// deletes it together with the alerts recorded for the shopper and their
// e-mails in the outbox.
import { createHmac, timingSafeEqual } from "node:crypto";
import { db } from "~/db.server";
import { env } from "~/env.server";
import { transaction } from "~/db/sql.server";
import { ApiError, badRequest } from "~/lib/api/errors";
import { getAlertLinkKey } from "~/domains/secrets/secrets.server";
import { decryptJson, encryptJson } from "~/domains/widget/crypto.server";
import { enqueueStep } from "~/domains/outbox/outbox.server";
import { admitEmail } from "~/domains/identity/email-quota.server";
import { countAlertDay } from "./alerts.sql.server";
import type { Lang } from "~/lib/lang";
import { alertMailPayload } from "./mail.server";

export type AlertConsentStatus = "off" | "pending" | "on";

/** Confirmation e-mails one shopper may ask for per UTC day. */
export const CONFIRMATIONS_PER_DAY = 5;

const EMAIL = /^[^\s@<>()",;:]{1,64}@[^\s@<>()",;:]{1,253}\.[^\s@<>()",;:]{2,63}$/;

export const isMailAddress = (value: string) => value.length <= 320 && EMAIL.test(value);

/** The outbox topic of every e-mail to this shopper about alerts (so they can be deleted with the consent). */
export const alertTopic = (userId: string) => `alert:${userId}`;

// "reminders": the reminder digests' own unsubscribe link, which ends reminders only.
type Purpose = "confirm" | "unsubscribe" | "reminders";

const sign = (key: Buffer, purpose: Purpose, userId: string, email: string) =>
  createHmac("sha256", key).update(`alert-${purpose}:${userId}:${email.toLowerCase()}`).digest().subarray(0, 16).toString("base64url");

const TOKEN = /^(v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{22})$/;

/**
 * `<account>.<signature>`: the account id encrypted (an e-mail link carries no user id, docs/identity.md),
 * and a signature bound to the address, so a link for an earlier address does nothing.
 */
async function linkToken(purpose: Purpose, userId: string, email: string): Promise<string> {
  return `${await encryptJson(userId, `alert-${purpose}`)}.${sign(await getAlertLinkKey(), purpose, userId, email)}`;
}

/** A signed link to one of the alert link pages (/alerts/confirm, /alerts/unsubscribe). */
async function linkUrl(page: "confirm" | "unsubscribe", purpose: Purpose, userId: string, email: string, lang: Lang, extra: Record<string, string> = {}) {
  return `${env.APP_URL}/alerts/${page}?${new URLSearchParams({ token: await linkToken(purpose, userId, email), lang, ...extra })}`;
}

/** The unsubscribe address of an alert e-mail (the List-Unsubscribe header and the link in the text). */
export const unsubscribeUrl = (userId: string, email: string, lang: Lang) => linkUrl("unsubscribe", "unsubscribe", userId, email, lang);

/** The unsubscribe address of a reminder digest: it ends reminders, alerts stay (docs/alerts.md). */
export const remindersUnsubscribeUrl = (userId: string, email: string, lang: Lang) =>
  linkUrl("unsubscribe", "reminders", userId, email, lang, { scope: "reminders" });

const confirmUrl = (userId: string, email: string, lang: Lang) => linkUrl("confirm", "confirm", userId, email, lang);

/** The consent a token names, if its signature holds for the address on record; undefined for a malformed token. */
async function consentOfToken(purpose: Purpose, token: string) {
  const match = TOKEN.exec(token.trim());
  if (!match) return undefined;
  const userId = await decryptJson<unknown>(match[1]!, `alert-${purpose}`).catch(() => null);
  if (typeof userId !== "string") return undefined;
  const consent = await db.alertConsent.findUnique({ where: { userId } });
  if (!consent) return null;
  const expected = Buffer.from(sign(await getAlertLinkKey(), purpose, consent.userId, consent.email));
  const given = Buffer.from(match[2]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? consent : undefined;
}

export const utcDay = (at = new Date()) => at.toISOString().slice(0, 10);

/** What "My lists" shows: off, waiting for the confirmation, or on, with the address and the reminder choice. */
export async function alertConsentOf(userId: string): Promise<{ status: AlertConsentStatus; email: string | null; reminders: boolean }> {
  const consent = await db.alertConsent.findUnique({ where: { userId } });
  if (!consent) return { status: "off", email: null, reminders: false };
  return { status: consent.confirmedAt ? "on" : "pending", email: consent.email, reminders: consent.remindersAt !== null };
}

/**
 * The shopper asks for alerts at `email`: recorded unconfirmed and a
 * confirmation link sent there. Asking again for the address already
 * confirmed changes nothing; another address needs its own confirmation.
 */
export async function requestAlerts(
  userId: string,
  rawEmail: string,
  lang: Lang,
  options: { reminders?: boolean; clientAddress?: string | null } = {},
): Promise<AlertConsentStatus> {
  const email = rawEmail.trim();
  if (!isMailAddress(email)) throw badRequest("invalid_email", "Enter a valid e-mail address");
  // A guest has proven owning no address: the form must not mail one for them.
  const user = await db.user.findUnique({ where: { id: userId }, select: { isAnonymous: true, email: true } });
  if (!user || user.isAnonymous || !user.email) throw new ApiError(403, "account_required", "Sign in with an e-mail account to get alerts");
  const current = await db.alertConsent.findUnique({ where: { userId } });
  if (current?.confirmedAt && current.email.toLowerCase() === email.toLowerCase()) {
    if (options.reminders !== undefined) await setReminders(userId, options.reminders);
    return "on";
  }
  // The reminder choice as the form gave it; a caller without one (the save dialog's offer) keeps the standing choice.
  const remindersAt = options.reminders === undefined ? (current?.remindersAt ?? null) : options.reminders ? (current?.remindersAt ?? new Date()) : null;
  const link = await confirmUrl(userId, email, lang);
  const day = utcDay();
  // The day's count first: over the cap nothing changes, not even a standing consent.
  await transaction(
    (function* () {
      // Bounded: the form must not become a way to mail strangers.
      if ((yield* countAlertDay(userId, `c:${day}`, CONFIRMATIONS_PER_DAY)) === 0) throw new ApiError(429, "too_many_requests", "Too many confirmation e-mails today");
      // And per recipient and client across all accounts (identity/email-quota.server.ts).
      yield* admitEmail(email, options.clientAddress ?? null);
      yield* enqueueStep({
        kind: "email",
        topic: alertTopic(userId),
        payload: alertMailPayload(email, { template: "alert-confirm", lang, link }),
      });
    })(),
  );
  // The link names this address: until it is followed, nothing is sent (and a standing consent for another address ends).
  await db.alertConsent.upsert({
    where: { userId },
    create: { userId, email, lang, confirmedAt: null, remindersAt },
    update: { email, lang, confirmedAt: null, createdAt: new Date(), remindersAt },
  });
  return "pending";
}

/**
 * The separate reminder choice ("My lists"): on needs the alert consent (asked
 * for or confirmed; digests go out only once it is confirmed); off forgets the
 * digests recorded and any not yet delivered. Alerts stay as they are.
 */
export async function setReminders(userId: string, on: boolean): Promise<boolean> {
  if (on) {
    const { count } = await db.alertConsent.updateMany({ where: { userId, remindersAt: null }, data: { remindersAt: new Date() } });
    return count > 0 || (await db.alertConsent.count({ where: { userId } })) > 0;
  }
  await db.$transaction(async (tx) => {
    await tx.alertConsent.updateMany({ where: { userId }, data: { remindersAt: null } });
    await tx.reminderSent.deleteMany({ where: { userId } });
    await tx.outboxMessage.deleteMany({ where: { topic: alertTopic(userId), dedupKey: { startsWith: "reminder:" } } });
  });
  return false;
}

/** A reminder digest's one-click unsubscribe: reminders end, alerts stay. */
export async function unsubscribeReminders(token: string): Promise<"unsubscribed" | "invalid"> {
  const consent = await consentOfToken("reminders", token);
  if (consent === undefined) return "invalid";
  if (consent) await setReminders(consent.userId, false);
  return "unsubscribed";
}

/** The confirmation link's POST: consent stands from now on. */
export async function confirmAlerts(token: string): Promise<"confirmed" | "invalid"> {
  const consent = await consentOfToken("confirm", token);
  if (!consent) return "invalid";
  if (!consent.confirmedAt) {
    await db.alertConsent.updateMany({ where: { userId: consent.userId, email: consent.email }, data: { confirmedAt: new Date() } });
  }
  return "confirmed";
}

/**
 * One-click unsubscribe (the e-mail's link or its List-Unsubscribe-Post):
 * consent and address go. A link whose consent is gone already answers
 * "unsubscribed" again; a forged one "invalid".
 */
export async function unsubscribeAlerts(token: string): Promise<"unsubscribed" | "invalid"> {
  const consent = await consentOfToken("unsubscribe", token);
  if (consent === undefined) return "invalid";
  if (consent) await forgetAlertsOfUser(consent.userId);
  return "unsubscribed";
}

/** "My lists": alerts off. */
export async function turnOffAlerts(userId: string): Promise<void> {
  await forgetAlertsOfUser(userId);
}

/** Withdrawn consent or a redaction: the address, the alerts recorded and their e-mails. */
export async function forgetAlertsOfUser(userId: string): Promise<{ consents: number; alerts: number }> {
  return db.$transaction(async (tx) => {
    await tx.reminderSent.deleteMany({ where: { userId } });
    const consents = (await tx.alertConsent.deleteMany({ where: { userId } })).count;
    const alerts = (await tx.alertSent.deleteMany({ where: { userId } })).count;
    await tx.outboxMessage.deleteMany({ where: { topic: alertTopic(userId) } });
    return { consents, alerts };
  });
}

/** What the save dialog may offer a shopper: "none" without an account address (a guest), else the consent's state. */
export type AlertOffer = "none" | AlertConsentStatus;

export async function alertOfferOf(userId: string): Promise<AlertOffer> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { email: true, isAnonymous: true } });
  if (!user?.email || user.isAnonymous) return "none";
  return (await alertConsentOf(userId)).status;
}

/** The save dialog's offer accepted: the same double opt-in as "My lists", for the account's own address. */
export async function acceptAlertOffer(userId: string, lang: Lang, clientAddress: string | null = null): Promise<AlertOffer> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { email: true, isAnonymous: true } });
  if (!user?.email || user.isAnonymous) return "none";
  // Asked for already (perhaps for another address on "My lists"): the dialog changes nothing.
  const current = (await alertConsentOf(userId)).status;
  if (current !== "off") return current;
  return requestAlerts(userId, user.email, lang, { clientAddress });
}
