// Clicks on the Buy-now link of alert e-mails (docs/alerts.md "Clicks"). The
// e-mail links to APP_URL/alerts/buy?token=<clickKey>, where the key is an
// HMAC of the alert's dedupKey (128 bits, unforgeable without the link key)
// stored on its AlertSent record with the product address the link used to
// carry. Following it counts one click per alert (clickedAt, set once) and
// leads to that stored address: the target comes from our records, never
// from the URL. Click data lives on the alert record, so it goes wherever the
// record goes (unsubscribe, account deletion, customers/redact, shop/redact).
import { createHmac } from "node:crypto";
import { db } from "~/db.server";
import { env } from "~/env.server";
import { getAlertLinkKey } from "~/domains/secrets/secrets.server";
import type { AlertLang } from "./alert-texts";

const CLICK_KEY = /^[A-Za-z0-9_-]{22}$/;

/** The click key of an alert: the same for the same dedupKey, so a record and its e-mail always agree. */
export async function clickKeyOf(dedupKey: string): Promise<string> {
  return createHmac("sha256", await getAlertLinkKey()).update(`alert-click:${dedupKey}`).digest().subarray(0, 16).toString("base64url");
}

/** The Buy-now address of an alert e-mail. */
export const clickUrl = (clickKey: string, lang: AlertLang) =>
  `${env.APP_URL}/alerts/buy?${new URLSearchParams({ token: clickKey, lang })}`;

/**
 * Mail security gateways and link previewers fetch links before (or instead
 * of) the shopper. Those that say who they are do not count as a click; the
 * rest (Safe Links and others that pose as browsers) cannot be told apart cheaply.
 */
const SCANNER =
  /\bbot\b|bot\/|bot-|crawler|spider|preview|scanner|facebookexternalhit|whatsapp|barracuda|mimecast|proofpoint|urldefense|safelinks|python-|go-http-client|java\/|curl\/|wget\/|okhttp|headlesschrome/i;

export const isLinkScanner = (userAgent: string | null) => !userAgent || SCANNER.test(userAgent);

const isWebAddress = (url: string) => {
  try {
    const { protocol } = new URL(url);
    return protocol === "https:" || protocol === "http:";
  } catch {
    return false;
  }
};

/**
 * The product address an alert link leads to, or null for a token we did not
 * hand out (or whose alert is gone). `count`: record the click, once per alert.
 */
export async function followAlertLink(token: string, count: boolean, now = new Date()): Promise<string | null> {
  if (!CLICK_KEY.test(token)) return null;
  const alert = await db.alertSent.findUnique({ where: { clickKey: token }, select: { id: true, buyUrl: true } });
  if (!alert?.buyUrl || !isWebAddress(alert.buyUrl)) return null;
  // Only the first click writes: repeated clicks and forwarded e-mails leave the record as it is.
  if (count) await db.alertSent.updateMany({ where: { id: alert.id, clickedAt: null }, data: { clickedAt: now } });
  return alert.buyUrl;
}
