// A reminder digest: the saved items not yet bought, each in the alerts' product block, then "and N more".
import { Fragment } from "react";
import type { ReminderMailModel } from "~/domains/alerts/mail.server";
import { emailTexts } from "~/i18n/emails";
import { Footer, ProductRow, priceText, renderEmail, styles, type Rendered } from "./layout";

export function renderReminderMail(m: ReminderMailModel): Rendered {
  const t = emailTexts(m.lang);
  const items = m.items.map((item) => ({ ...item, title: item.title || t.previewTitle, price: priceText(item.price, t) }));
  const subject = t.reminderSubject(items.length + m.more, items[0]?.title ?? "");
  const lines = [t.reminderLead, ""];
  for (const item of items) {
    lines.push(item.price ? `${item.title} · ${item.price}` : item.title);
    if (item.buyUrl) lines.push(`${t.buyNow}: ${item.buyUrl}`);
    lines.push("");
  }
  if (m.more > 0) lines.push(`${t.reminderMore(m.more)}: ${m.listsUrl}`);
  return renderEmail({
    lang: m.lang,
    subject,
    body: (
      <>
        <h1 style={styles.h1}>{subject}</h1>
        <p style={styles.p}>{t.reminderLead}</p>
        {items.map((item, i) => (
          <Fragment key={i}>
            <hr style={styles.hr} />
            <ProductRow
              t={t}
              title={item.title}
              imageUrl={item.imageUrl}
              heading={<h2 style={styles.h2}>{item.title}</h2>}
              figures={item.price ? [{ label: t.price, value: item.price, strong: true }] : []}
              buyUrl={item.buyUrl}
            />
          </Fragment>
        ))}
        {m.more > 0 ? (
          <>
            <hr style={styles.hr} />
            <p style={{ ...styles.p, marginBottom: 0 }}>
              <a href={m.listsUrl} style={styles.link}>
                {t.reminderMore(m.more)}
              </a>
            </p>
          </>
        ) : null}
      </>
    ),
    footer: <Footer why={t.reminderWhy} unsubscribe={{ label: t.reminderUnsubscribe, url: m.unsubscribeUrl }} />,
    textLines: lines,
    footerLines: [t.reminderWhy, `${t.reminderUnsubscribe}: ${m.unsubscribeUrl}`],
  });
}
