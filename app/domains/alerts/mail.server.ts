// What every e-mail about saved products (alerts, reminder digests, the
// confirmation) carries besides its words: the From under the shop's name,
// Reply-To, and the one-click unsubscribe headers (RFC 8058). The e-mails
// are queued as models (the template's name, the language, the values); the
// templates (app/pages/emails/) render them when the outbox sends them.
import { env } from "~/env.server";
import type { Lang } from "~/lib/lang";
import type { AlertKind } from "~/domains/plans/plans";
import type { QueuedMail } from "~/domains/outbox/worker.server";

/** A path on this service (an uploaded image) as an absolute address; others as they are. */
export const absolute = (url: string | null) => (!url ? null : url.startsWith("/") ? `${env.APP_URL}${url}` : url);

/** The product page with the saved variant chosen (`?variant=<id>`), as Shopify's product pages read it. */
export function withVariant(url: string, variantId: string | null): string {
  if (!variantId) return url;
  try {
    const parsed = new URL(url);
    parsed.searchParams.set("variant", variantId);
    return parsed.toString();
  } catch {
    return url;
  }
}

/** MAIL_FROM's address under the shop's name: the address must stay one the mail server may send as. */
export function fromOf(senderName: string | null): string | undefined {
  if (!senderName) return undefined;
  const address = /<([^>]+)>/.exec(env.MAIL_FROM)?.[1] ?? env.MAIL_FROM.trim();
  return `"${senderName}" <${address}>`;
}

/** An amount in minor units of its currency; the template writes it in the e-mail's language. */
export interface MailPrice {
  minor: number | null;
  currency: string | null;
}

/** A price or stock alert on one saved product. */
export interface AlertMailModel {
  template: "alert";
  lang: Lang;
  kind: AlertKind;
  /** Empty: the template names a placeholder (the admin's preview of a shop without products). */
  title: string;
  imageUrl: string | null;
  /** The price standing now; for a price drop also the one before and the lowest of the 30 days before the drop. */
  price: MailPrice;
  previous: MailPrice;
  lowest30Days: MailPrice;
  /** Units left (low stock). */
  quantity: number | null;
  buyUrl: string | null;
  unsubscribeUrl: string;
}

/** A reminder digest: saved items not yet bought, then "and N more" with a link to the shopper's lists. */
export interface ReminderMailModel {
  template: "reminder";
  lang: Lang;
  items: Array<{ title: string; imageUrl: string | null; price: MailPrice; buyUrl: string | null }>;
  more: number;
  listsUrl: string;
  unsubscribeUrl: string;
}

/** The link that confirms the alert consent (double opt-in). */
export interface AlertConfirmMailModel {
  template: "alert-confirm";
  lang: Lang;
  link: string;
}

/** The outbox payload of an e-mail about saved products: the model, the shop's sender, the unsubscribe headers. */
export function alertMailPayload(
  to: string,
  model: AlertMailModel | ReminderMailModel | AlertConfirmMailModel,
  sender: { senderName: string | null; replyTo: string | null } = { senderName: null, replyTo: null },
): QueuedMail {
  const unsubscribe = "unsubscribeUrl" in model ? model.unsubscribeUrl : null;
  const from = fromOf(sender.senderName);
  const headers = {
    ...(unsubscribe ? { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } : {}),
    ...(sender.replyTo ? { "Reply-To": sender.replyTo } : {}),
  };
  return { to, ...(from ? { from } : {}), ...(Object.keys(headers).length > 0 ? { headers } : {}), model };
}
