// "Your account" on My lists (docs/identity.md "Account basics"): the
// display name others see, password and e-mail address, "Download my data"
// and "Delete my account". Forms post to /{lang}/account/settings
// (app/routes/$lang.account.settings.tsx): without scripts the answer is a
// redirect back here naming the outcome (`?account=…` / `?account_error=…`);
// with scripts they are fetchers and say the outcome in place. Its data comes
// from the My lists route's loader (`settings`).
import type { Lang } from "~/i18n/lang";
import { Form, useFetcher, useRouteLoaderData, useSearchParams } from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { DISPLAY_NAME_MAX } from "~/domains/identity/display-name";
import { errorText, myListsTexts } from "~/i18n/my-lists";

export type SettingsDone = "name-saved" | "password-changed" | "email-pending" | "account-deleted";
export type SettingsResult = { ok: true; done: SettingsDone; form: string } | { ok: false; error: string; form: string };

/** What My lists' loader hands the settings (null when nobody is signed in). */
export interface AccountSettingsData {
  email: string | null;
  isAnonymous: boolean;
  displayName: string | null;
}

type Texts = ReturnType<typeof myListsTexts>;

const settingsError = (lang: Lang, code: string) => {
  const own = myListsTexts(lang).settings.errors;
  return Object.hasOwn(own, code) ? own[code as keyof typeof own] : errorText(lang, code);
};

const DONE: readonly SettingsDone[] = ["name-saved", "password-changed", "email-pending", "account-deleted"];

/** A settings form: a plain post without scripts, a fetcher with them; its outcome said under it. */
function SettingsForm(props: { intent: string; lang: Lang; t: Texts; children: ReactNode; plain?: boolean; className?: string }) {
  const { intent, lang, t } = props;
  const fetcher = useFetcher<SettingsResult>();
  const [params] = useSearchParams();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const formRef = useRef<HTMLFormElement>(null);
  // A redirect's outcome (no scripts) for this form, or the fetcher's.
  const redirected: SettingsResult | null =
    params.get("account_form") === intent && params.get("account_error")
      ? { ok: false, error: params.get("account_error")!, form: intent }
      : null;
  const result = fetcher.state === "idle" && fetcher.data ? fetcher.data : redirected;
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) formRef.current?.querySelectorAll<HTMLInputElement>("input[type=password]").forEach((i) => (i.value = ""));
  }, [fetcher.state, fetcher.data]);
  const errorId = `settings-${intent}-error`;
  const FormTag = props.plain ? Form : fetcher.Form;
  return (
    <FormTag method="post" action={`/${lang}/account/settings`} ref={formRef} className={props.className ?? "ml-settings-form"} aria-busy={fetcher.state !== "idle"} aria-describedby={result && !result.ok ? errorId : undefined}>
      <input type="hidden" name="intent" value={intent} />
      {hydrated && !props.plain ? <input type="hidden" name="enhanced" value="1" /> : null}
      {props.children}
      {result && !result.ok ? (
        <p role="alert" id={errorId} className="alert ml-form-error">
          {settingsError(lang, result.error)}
        </p>
      ) : null}
      {result?.ok ? (
        <p role="status" className="notice ml-form-error">
          {t.settings.done[result.done]}
        </p>
      ) : null}
    </FormTag>
  );
}

export function AccountSettings({ lang }: { lang: Lang }) {
  const data = useRouteLoaderData<{ settings?: AccountSettingsData | null }>("routes/$lang.lists");
  const [params] = useSearchParams();
  const t = myListsTexts(lang);
  const s = t.settings;
  const settings = data?.settings ?? null;
  const doneParam = params.get("account");
  const done = DONE.find((d) => d === doneParam) ?? null;
  if (!settings) {
    // After "Delete my account" nobody is signed in any more: say it happened.
    return done === "account-deleted" ? (
      <p role="status" id="account-deleted" tabIndex={-1} className="notice ml-settings-deleted">
        {s.done["account-deleted"]}
      </p>
    ) : null;
  }
  const guest = settings.isAnonymous || !settings.email;
  return (
    <section className="card ml-card ml-settings" aria-labelledby="account-settings">
      <h2 id="account-settings" tabIndex={-1}>
        {s.heading}
      </h2>
      {done && done !== "account-deleted" ? (
        <p role="status" className="notice">
          {s.done[done]}
        </p>
      ) : null}

      <SettingsForm intent="display-name" lang={lang} t={t}>
        <div className="ml-field">
          <label htmlFor="settings-display-name">{s.displayName}</label>
          <input id="settings-display-name" type="text" name="display_name" maxLength={DISPLAY_NAME_MAX} defaultValue={settings.displayName ?? ""} autoComplete="nickname" aria-describedby="settings-display-name-hint" />
          <p id="settings-display-name-hint" className="muted ml-hint">
            {s.displayNameHint}
          </p>
        </div>
        <button type="submit" className="btn">
          {s.saveName}
        </button>
      </SettingsForm>

      {guest ? null : (
        <>
          <h3>{s.passwordHeading}</h3>
          <SettingsForm intent="change-password" lang={lang} t={t}>
            {/* For password managers: which account the new password belongs to. */}
            <input type="email" name="username" autoComplete="username" value={settings.email ?? ""} readOnly hidden />
            <div className="ml-field">
              <label htmlFor="settings-current-password">{s.currentPassword}</label>
              <input id="settings-current-password" type="password" name="current_password" autoComplete="current-password" required />
            </div>
            <div className="ml-field">
              <label htmlFor="settings-new-password">{s.newPassword}</label>
              <input id="settings-new-password" type="password" name="password" autoComplete="new-password" required minLength={8} aria-describedby="settings-new-password-hint" />
              <p id="settings-new-password-hint" className="muted ml-hint">
                {s.passwordHint}
              </p>
            </div>
            <button type="submit" className="btn">
              {s.savePassword}
            </button>
          </SettingsForm>

          <h3>{s.emailHeading}</h3>
          <SettingsForm intent="change-email" lang={lang} t={t}>
            <p className="muted ml-hint">{s.currentEmail(settings.email ?? "")}</p>
            <div className="ml-field">
              <label htmlFor="settings-new-email">{s.newEmail}</label>
              <input id="settings-new-email" type="email" name="email" autoComplete="email" required maxLength={320} aria-describedby="settings-new-email-hint" />
              <p id="settings-new-email-hint" className="muted ml-hint">
                {s.emailHint}
              </p>
            </div>
            <div className="ml-field">
              <label htmlFor="settings-email-password">{s.emailPassword}</label>
              <input id="settings-email-password" type="password" name="current_password" autoComplete="current-password" required />
            </div>
            <button type="submit" className="btn">
              {s.saveEmail}
            </button>
          </SettingsForm>
        </>
      )}

      <h3>{s.dataHeading}</h3>
      <p className="ml-hint">{s.dataText}</p>
      <p>
        <a className="btn" href={`/${lang}/account/data`} download>
          {s.download}
        </a>
      </p>

      <h3>{s.deleteHeading}</h3>
      {/* A plain post: once the account is gone, the page reloads signed out. */}
      <SettingsForm intent="delete-account" lang={lang} t={t} plain>
        <p className="ml-hint">{s.deleteText}</p>
        <div className="ml-check">
          <input id="settings-delete-confirm" type="checkbox" name="confirm" value="yes" required />
          <label htmlFor="settings-delete-confirm">{s.deleteConfirm}</label>
        </div>
        <button type="submit" className="btn ml-danger">
          {s.deleteButton}
        </button>
      </SettingsForm>
    </section>
  );
}
