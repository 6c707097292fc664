// The alert consent's confirmation (double opt-in): the link that turns the alerts on.
import type { AlertConfirmMailModel } from "~/domains/alerts/mail.server";
import { emailTexts } from "~/i18n/emails";
import { Button, LinkFallback, renderEmail, styles, type Rendered } from "./layout";

export function renderAlertConfirmMail(m: AlertConfirmMailModel): Rendered {
  const t = emailTexts(m.lang);
  const rendered = renderEmail({
    lang: m.lang,
    subject: t.confirmSubject,
    body: (
      <>
        <h1 style={styles.h1}>{t.confirmSubject}</h1>
        <p style={styles.p}>{t.confirmLead}</p>
        <p style={styles.p}>{t.confirmAsk}</p>
        <Button href={m.link}>{t.confirmButton}</Button>
        <LinkFallback label={t.buttonFallback} href={m.link} />
        <p style={{ ...styles.p, ...styles.muted, fontSize: 14, marginBottom: 0 }}>{t.confirmIgnore}</p>
      </>
    ),
    footer: null,
    textLines: [],
    footerLines: [],
  });
  // A one-off e-mail the shopper asked for: no footer, the text as it always read.
  return { ...rendered, text: [t.confirmLead, "", t.confirmAsk, m.link, "", t.confirmIgnore].join("\n") };
}
