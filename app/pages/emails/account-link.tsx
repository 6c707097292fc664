// The account's link e-mails: a new password (recovery), a new address (its confirmation).
import type { AccountLinkMailModel } from "~/domains/identity/account.server";
import { emailTexts } from "~/i18n/emails";
import { Button, Footer, LinkFallback, renderEmail, styles, type Rendered } from "./layout";

export function renderAccountLinkMail(m: AccountLinkMailModel): Rendered {
  const t = emailTexts(m.lang);
  const recovery = m.kind === "recovery";
  const subject = recovery ? t.recoverySubject : t.emailChangeSubject;
  const lead = recovery ? t.recoveryLead : t.emailChangeLead;
  const ignore = recovery ? t.recoveryIgnore : t.emailChangeIgnore;
  return renderEmail({
    lang: m.lang,
    subject,
    body: (
      <>
        <h1 style={styles.h1}>{subject}</h1>
        <p style={styles.p}>{t.greeting}</p>
        <p style={styles.p}>{lead}</p>
        <Button href={m.link}>{recovery ? t.recoveryButton : t.emailChangeButton}</Button>
        <LinkFallback label={t.buttonFallback} href={m.link} />
        <p style={{ ...styles.p, ...styles.muted, fontSize: 14, marginBottom: 0 }}>{ignore}</p>
      </>
    ),
    footer: <Footer why={t.accountWhy} />,
    textLines: [t.greeting, "", lead, "", m.link, "", ignore],
    footerLines: [t.accountWhy],
  });
}
