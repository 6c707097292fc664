// Every e-mail's template, by the name its model gives (the outbox renders a
// queued e-mail's model when it sends it: registerMailRenderer in
// app/background.server.ts; the admin's previews render the same).
import type { MailModel } from "~/domains/outbox/worker.server";
import type { AlertConfirmMailModel, AlertMailModel, ReminderMailModel } from "~/domains/alerts/mail.server";
import type { AccountLinkMailModel } from "~/domains/identity/account.server";
import type { UsageMailModel } from "~/domains/metering/actions.server";
import { isLang } from "~/i18n/lang";
import { renderAlertMail } from "./alert";
import { renderReminderMail } from "./reminder";
import { renderAlertConfirmMail } from "./alert-confirm";
import { renderAccountLinkMail } from "./account-link";
import { renderUsageMail } from "./usage";
import type { Rendered } from "./layout";

export type { Rendered };
export type EmailModel = AlertMailModel | ReminderMailModel | AlertConfirmMailModel | AccountLinkMailModel | UsageMailModel;

/** Subject, text and HTML of an e-mail's model; null for a template this version does not know. */
export function renderMail(model: MailModel): Rendered | null {
  // A model queued in a language since removed is written in the default one rather than lost.
  const m = { ...model, lang: isLang(model.lang) ? model.lang : "en" } as EmailModel;
  switch (m.template) {
    case "alert":
      return renderAlertMail(m);
    case "reminder":
      return renderReminderMail(m);
    case "alert-confirm":
      return renderAlertConfirmMail(m);
    case "account-link":
      return renderAccountLinkMail(m);
    case "usage":
      return renderUsageMail(m);
    default:
      return null;
  }
}
