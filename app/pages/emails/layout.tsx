// The frame every e-mail shares: a light page, one white column of at most
// 560 px (tables, which every mail program lays out alike), the footer that
// says why the e-mail came and how to stop it. Inline styles only: mail
// programs drop style sheets. Rendered with renderToStaticMarkup, so every
// value is escaped by construction.
import type { CSSProperties, ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { formatMoney } from "~/lib/money";
import type { MailPrice } from "~/domains/alerts/mail.server";
import type { EmailTexts } from "~/i18n/emails";

const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const INK = "#111111";
const MUTED = "#52525b";
const LINE = "#e4e4e7";

export const styles = {
  h1: { fontSize: 22, lineHeight: 1.3, fontWeight: 700, margin: "0 0 12px" },
  h2: { fontSize: 17, lineHeight: 1.35, fontWeight: 600, margin: "0 0 4px" },
  p: { margin: "0 0 16px" },
  muted: { color: MUTED },
  link: { color: INK, textDecoration: "underline" },
  hr: { border: 0, borderTop: `1px solid ${LINE}`, margin: "24px 0" },
} satisfies Record<string, CSSProperties>;

export interface Rendered {
  subject: string;
  text: string;
  html: string;
}

/** The finished e-mail: the subject, the plain-text part (its lines, then the footer's) and the HTML part. */
export function renderEmail(m: { lang: string; subject: string; body: ReactNode; footer: ReactNode; textLines: string[]; footerLines: string[] }): Rendered {
  const html = `<!doctype html>${renderToStaticMarkup(
    <EmailDocument lang={m.lang} title={m.subject} footer={m.footer}>
      {m.body}
    </EmailDocument>
  )}`;
  return { subject: m.subject, text: [...m.textLines, "", "--", ...m.footerLines].join("\n"), html };
}

function EmailDocument({ lang, title, footer, children }: { lang: string; title: string; footer: ReactNode; children: ReactNode }) {
  return (
    <html lang={lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        <title>{title}</title>
      </head>
      <body style={{ margin: 0, padding: 0, backgroundColor: "#f4f4f5" }}>
        <table role="presentation" width="100%" cellPadding={0} cellSpacing={0} style={{ backgroundColor: "#f4f4f5", borderCollapse: "collapse" }}>
          <tbody>
            <tr>
              <td align="center" style={{ padding: "24px 12px" }}>
                <table role="presentation" width="100%" cellPadding={0} cellSpacing={0} style={{ maxWidth: 560, borderCollapse: "collapse" }}>
                  <tbody>
                    <tr>
                      <td
                        style={{
                          backgroundColor: "#ffffff",
                          border: `1px solid ${LINE}`,
                          borderRadius: 8,
                          padding: "28px 24px",
                          fontFamily: FONT,
                          fontSize: 16,
                          lineHeight: 1.5,
                          color: INK,
                          textAlign: "left",
                        }}
                      >
                        {children}
                      </td>
                    </tr>
                    <tr>
                      <td style={{ padding: "16px 24px 0", fontFamily: FONT, fontSize: 12, lineHeight: 1.5, color: MUTED, textAlign: "left" }}>{footer}</td>
                    </tr>
                  </tbody>
                </table>
              </td>
            </tr>
          </tbody>
        </table>
      </body>
    </html>
  );
}

/** A link drawn as a button: the one call to action of an e-mail. */
export function Button({ href, children, last }: { href: string; children: ReactNode; last?: boolean }) {
  return (
    <p style={{ margin: last ? "16px 0 0" : "20px 0" }}>
      <a
        href={href}
        style={{
          display: "inline-block",
          backgroundColor: INK,
          color: "#ffffff",
          padding: "12px 22px",
          borderRadius: 6,
          fontWeight: 600,
          textDecoration: "none",
        }}
      >
        {children}
      </a>
    </p>
  );
}

/** Under a button: the address itself, for mail programs that show no buttons. */
export function LinkFallback({ label, href }: { label: string; href: string }) {
  return (
    <p style={{ ...styles.p, ...styles.muted, fontSize: 13, wordBreak: "break-all" }}>
      {label}{" "}
      <a href={href} style={{ color: MUTED }}>
        {href}
      </a>
    </p>
  );
}

export interface Figure {
  label: string;
  value: string;
  strong?: boolean;
  /** A value no longer standing (the previous price). */
  strike?: boolean;
}

/** One product beside its image (a digest's row): the image on the left, heading, figures and button on the right. */
export function ProductRow(p: { t: EmailTexts; title: string; imageUrl: string | null; heading: ReactNode; figures: Figure[]; buyUrl: string | null }) {
  const details = <ProductBlock {...p} imageUrl={null} imageWidth={0} />;
  if (!p.imageUrl) return details;
  return (
    <table role="presentation" width="100%" cellPadding={0} cellSpacing={0} style={{ borderCollapse: "collapse" }}>
      <tbody>
        <tr>
          <td width={112} style={{ width: 112, paddingRight: 16, verticalAlign: "top" }}>
            <img
              src={p.imageUrl}
              alt={p.title}
              width={112}
              style={{ width: 112, maxWidth: "100%", height: "auto", display: "block", borderRadius: 6, border: 0 }}
            />
          </td>
          <td style={{ verticalAlign: "top" }}>{details}</td>
        </tr>
      </tbody>
    </table>
  );
}

/** One product: image, heading, figures and the "Buy now" button. */
export function ProductBlock(p: {
  t: EmailTexts;
  title: string;
  imageUrl: string | null;
  imageWidth: number;
  heading: ReactNode;
  figures: Figure[];
  buyUrl: string | null;
}) {
  return (
    <>
      {p.imageUrl ? (
        <img
          src={p.imageUrl}
          alt={p.title}
          width={p.imageWidth}
          style={{ maxWidth: "100%", height: "auto", display: "block", marginBottom: 16, borderRadius: 6, border: 0 }}
        />
      ) : null}
      {p.heading}
      {p.figures.length > 0 ? (
        <table role="presentation" cellPadding={0} cellSpacing={0} style={{ borderCollapse: "collapse", margin: "8px 0 4px" }}>
          <tbody>
            {p.figures.map((f) => (
              <tr key={f.label}>
                <td style={{ padding: "3px 16px 3px 0", color: MUTED, verticalAlign: "top" }}>{f.label}</td>
                <td style={{ padding: "3px 0", verticalAlign: "top" }}>{f.strong ? <strong>{f.value}</strong> : f.strike ? <s>{f.value}</s> : f.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {p.buyUrl ? (
        <Button href={p.buyUrl} last>
          {p.t.buyNow}
        </Button>
      ) : null}
    </>
  );
}

/** Why the e-mail came, and its unsubscribe link (none on a one-off e-mail the shopper asked for). */
export function Footer({ why, unsubscribe }: { why: string; unsubscribe?: { label: string; url: string } }) {
  return (
    <p style={{ margin: 0 }}>
      {why}
      {unsubscribe ? (
        <>
          {" "}
          <a href={unsubscribe.url} style={{ color: MUTED, textDecoration: "underline" }}>
            {unsubscribe.label}
          </a>
        </>
      ) : null}
    </p>
  );
}

/** A price in the e-mail's language; null without one. */
export const priceText = (price: MailPrice, t: EmailTexts): string | null => (price.minor == null ? null : formatMoney(price.minor, price.currency, t.locale));
