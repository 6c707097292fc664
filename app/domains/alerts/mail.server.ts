// The frame every e-mail about saved products shares (alerts and reminder
// digests): the From under the shop's name, the product block (image, what is
// said about it, the "Buy now" button), the footer with the unsubscribe link,
// and the one-click unsubscribe headers (RFC 8058).
import { env } from "~/env.server";
import { alertTexts, type AlertLang } from "./alert-texts";

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

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** MAIL_FROM's address under the shop's name: the address must stay one the mail server may send as. */
export function fromOf(senderName: string | null): string | undefined {
  if (!senderName) return undefined;
  const address = /<([^>]+)>/.exec(env.MAIL_FROM)?.[1] ?? env.MAIL_FROM.trim();
  return `"${senderName}" <${address}>`;
}

export interface ProductBlock {
  title: string;
  imageUrl: string | null;
  /** Width of the image in pixels. */
  imageWidth: number;
  /** HTML between the image and the figures (already escaped): a heading, a lead. */
  headingHtml: string;
  /** Label and value rows; `strike` shows a value no longer standing (the previous price). */
  rows: Array<{ label: string; value: string; strong?: boolean; strike?: boolean }>;
  buyUrl: string | null;
}

/** One product: image, heading, figures and the "Buy now" button. */
export function productBlockHtml(lang: AlertLang, p: ProductBlock): string {
  const t = alertTexts(lang);
  const rows = p.rows.map((r) => {
    const value = escapeHtml(r.value);
    return `<tr><td>${escapeHtml(r.label)}</td><td>${r.strong ? `<strong>${value}</strong>` : r.strike ? `<s>${value}</s>` : value}</td></tr>`;
  });
  return `${p.imageUrl ? `<img src="${escapeHtml(p.imageUrl)}" alt="${escapeHtml(p.title)}" width="${p.imageWidth}" style="max-width:100%;height:auto;display:block;margin-bottom:16px">` : ""}
${p.headingHtml}
${rows.length ? `<table cellpadding="4">${rows.join("")}</table>` : ""}
${p.buyUrl ? mailButton(p.buyUrl, t.buyNow) : ""}`;
}

/** A link drawn as a button, the one call to action of an e-mail. */
export const mailButton = (url: string, label: string) =>
  `<p><a href="${escapeHtml(url)}" style="display:inline-block;background:#111;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(label)}</a></p>`;

export interface MailFrame {
  lang: AlertLang;
  to: string;
  subject: string;
  /** The body's HTML (already escaped): product blocks and whatever goes between them. */
  bodyHtml: string;
  /** The plain-text part above the footer. */
  textLines: string[];
  /** Why the shopper gets this e-mail, and its unsubscribe link (none on a one-off e-mail the shopper asked for). */
  why: string;
  unsubscribeLabel?: string;
  unsubscribe?: string;
  senderName: string | null;
  replyTo: string | null;
}

/** The finished e-mail (the outbox's `email` payload): text and HTML, From, Reply-To and the unsubscribe headers. */
export function composeMail(m: MailFrame) {
  const unsubscribe = m.unsubscribe ? { url: m.unsubscribe, label: m.unsubscribeLabel ?? "" } : null;
  const text = [...m.textLines, "", "--", m.why, ...(unsubscribe ? [`${unsubscribe.label}: ${unsubscribe.url}`] : [])].join("\n");
  const unsubscribeLink = unsubscribe ? ` <a href="${escapeHtml(unsubscribe.url)}">${escapeHtml(unsubscribe.label)}</a>` : "";
  const html = `<!doctype html><html lang="${m.lang}"><body style="font-family:system-ui,sans-serif;color:#111;max-width:560px;margin:0 auto;padding:16px">
${m.bodyHtml}
<p style="font-size:12px;color:#555">${escapeHtml(m.why)}${unsubscribeLink}</p>
</body></html>`;
  const from = fromOf(m.senderName);
  const headers = {
    ...(unsubscribe ? { "List-Unsubscribe": `<${unsubscribe.url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } : {}),
    ...(m.replyTo ? { "Reply-To": m.replyTo } : {}),
  };
  return {
    to: m.to,
    ...(from ? { from } : {}),
    subject: m.subject,
    text,
    html,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
  };
}
