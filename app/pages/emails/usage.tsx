// A partner's usage of their plan's monthly wishlist actions: 80 % reached, or all of them.
import type { UsageMailModel } from "~/domains/metering/actions.server";
import { emailTexts } from "~/i18n/emails";
import { formatUnitPrice } from "~/lib/money";
import { Button, Footer, LinkFallback, renderEmail, styles, type Rendered } from "./layout";

export function renderUsageMail(m: UsageMailModel): Rendered {
  const t = emailTexts(m.lang);
  const number = (n: number) => n.toLocaleString(t.locale);
  const subject = t.usageSubject(m.partnerName, m.planName, m.threshold);
  const lead = t.usageLead(m.period, number(m.total), number(m.limit), m.planName, m.threshold);
  // Overage is billed in US dollars through Shopify, a fraction of a cent per action.
  const perAction = m.overagePerActionMinor === null ? null : formatUnitPrice(m.overagePerActionMinor, "USD", t.locale);
  const next = m.threshold < 100 ? t.usageUpgrade : m.hardLimit || perAction === null ? t.usagePaused : t.usageOverage(perAction);
  return renderEmail({
    lang: m.lang,
    subject,
    body: (
      <>
        <h1 style={styles.h1}>{subject}</h1>
        <p style={styles.p}>{t.usageGreeting(m.partnerName)}</p>
        <p style={styles.p}>{lead}</p>
        <p style={styles.p}>{next}</p>
        <Button href={m.plansUrl}>{t.usageButton}</Button>
        <LinkFallback label={t.buttonFallback} href={m.plansUrl} />
      </>
    ),
    footer: <Footer why={t.usageWhy} />,
    textLines: [t.usageGreeting(m.partnerName), "", lead, next, "", `${t.usageButton}: ${m.plansUrl}`],
    footerLines: [t.usageWhy],
  });
}
