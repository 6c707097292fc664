// A price or stock alert: one product, what changed, the "Buy now" button.
import type { AlertMailModel } from "~/domains/alerts/mail.server";
import { emailTexts } from "~/i18n/emails";
import { Footer, ProductBlock, priceText, renderEmail, styles, type Figure, type Rendered } from "./layout";

export function renderAlertMail(m: AlertMailModel): Rendered {
  const t = emailTexts(m.lang);
  const title = m.title || t.previewTitle;
  const price = priceText(m.price, t);
  const previous = priceText(m.previous, t);
  const low = priceText(m.lowest30Days, t);
  const left = m.quantity ?? 0;
  const subject =
    m.kind === "price_drop"
      ? t.priceDropSubject(title, price ?? "")
      : m.kind === "back_in_stock"
      ? t.backInStockSubject(title)
      : t.lowStockSubject(title, left);
  const lead =
    m.kind === "price_drop"
      ? t.priceDropLead(title, price ?? "", previous ?? "")
      : m.kind === "back_in_stock"
      ? t.backInStockLead(title)
      : t.lowStockLead(title, left);

  const lines = [lead];
  if (m.kind === "price_drop" && low) lines.push(t.lowest30(low));
  else if (price) lines.push(`${t.now}: ${price}`);
  if (m.buyUrl) lines.push("", `${t.buyNow}: ${m.buyUrl}`);

  const figures: Figure[] = [];
  if (price) figures.push({ label: t.now, value: price, strong: true });
  if (m.kind === "price_drop") {
    if (previous) figures.push({ label: t.before, value: previous, strike: true });
    if (low) figures.push({ label: t.low30Label, value: low });
  }
  return renderEmail({
    lang: m.lang,
    subject,
    body: (
      <ProductBlock
        t={t}
        title={title}
        imageUrl={m.imageUrl}
        imageWidth={240}
        heading={
          <>
            <h1 style={styles.h1}>{subject}</h1>
            <p style={styles.p}>{lead}</p>
          </>
        }
        figures={figures}
        buyUrl={m.buyUrl}
      />
    ),
    footer: <Footer why={t.why} unsubscribe={{ label: t.unsubscribe, url: m.unsubscribeUrl }} />,
    textLines: lines,
    footerLines: [t.why, `${t.unsubscribe}: ${m.unsubscribeUrl}`],
  });
}
