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
import { canonicalUrl } from "~/domains/products/canonical-url";
import type { Lang } from "~/lib/lang";

const CLICK_KEY = /^[A-Za-z0-9_-]{22}$/;

/** The click key of an alert: the same for the same dedupKey, so a record and its e-mail always agree. */
export async function clickKeyOf(dedupKey: string): Promise<string> {
  return createHmac("sha256", await getAlertLinkKey()).update(`alert-click:${dedupKey}`).digest().subarray(0, 16).toString("base64url");
}

/** The Buy-now address of an alert e-mail. */
export const clickUrl = (clickKey: string, lang: Lang) =>
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

/** Where an alert link leads: straight there, or only through our interstitial page (docs/alerts.md "Clicks"). */
export interface AlertLinkTarget {
  url: string;
  /** The address is an installed shop's, or the product's own page as its shop's webhooks recorded it. */
  trusted: boolean;
}

/** Our own parameters on a product address (the variant and the signed reference); what is left is the product's page. */
function withoutOwnParams(url: string): string | null {
  try {
    const u = new URL(url);
    u.searchParams.delete("variant");
    u.searchParams.delete("wish_ref");
    return canonicalUrl(u.toString());
  } catch {
    return null;
  }
}

/**
 * Whether a redirect to `url` speaks for a shop that is installed now: its
 * host is an active shop's myshopify or primary domain, or it is the alert's
 * product's own page and that product was recorded by an active shop's
 * webhooks. A scraped page says nothing about who runs it (anyone can price
 * a page and save it), so it never earns a redirect on our domain.
 */
async function isTrustedTarget(url: string, listItemId: number): Promise<boolean> {
  const host = new URL(url).hostname.toLowerCase();
  const shop = await db.platformShop.findFirst({ where: { active: true, OR: [{ domain: host }, { primaryDomain: host }] }, select: { id: true } });
  if (shop) return true;
  const item = await db.listItem.findUnique({ where: { id: listItemId }, select: { product: { select: { canonicalUrl: true, sourceShopId: true } } } });
  const product = item?.product;
  if (!product?.canonicalUrl || product.sourceShopId === null || withoutOwnParams(url) !== product.canonicalUrl) return false;
  return (await db.platformShop.count({ where: { id: product.sourceShopId, active: true } })) > 0;
}

/**
 * The product address an alert link leads to, or null for a token we did not
 * hand out (or whose alert is gone). `count`: record the click, once per alert.
 */
export async function followAlertLink(token: string, count: boolean, now = new Date()): Promise<AlertLinkTarget | null> {
  if (!CLICK_KEY.test(token)) return null;
  const alert = await db.alertSent.findUnique({ where: { clickKey: token }, select: { id: true, buyUrl: true, listItemId: true } });
  if (!alert?.buyUrl || !isWebAddress(alert.buyUrl)) return null;
  // Only the first click writes: repeated clicks and forwarded e-mails leave the record as it is.
  if (count) await db.alertSent.updateMany({ where: { id: alert.id, clickedAt: null }, data: { clickedAt: now } });
  return { url: alert.buyUrl, trusted: await isTrustedTarget(alert.buyUrl, alert.listItemId) };
}
