// The account pages behind the e-mailed links and "Forgot password?"
// (docs/identity.md "Account basics"): asking for a recovery link, setting a
// new password, confirming a new address. The links' token is in the URL
// fragment, which browsers never send: the pages read it with a script and
// use it only when the shopper presses the button, so a link scanner that
// opens (or even renders) the page uses up nothing.
import { json } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { accountErrorText, accountTexts } from "~/i18n/account";
import { isLang, type Lang } from "~/i18n/lang";
import { ApiFailure, call, callSite } from "~/hosted-pages/client";
import designCss from "~/hosted-pages/design.css?url";

export const accountPageLinks = () => [{ rel: "stylesheet", href: designCss }];

/** Not cached, not indexed (the Referrer-Policy, same-origin, comes from app/lib/http/security-headers.ts by path). */
export const ACCOUNT_PAGE_HEADERS = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex" };

export const accountPageMeta = (title: string) => [{ title }, { name: "robots", content: "noindex" }];

/** The routes' `headers`: the pages' own, also on a 404 and after a form post. */
export const accountPageHeaders = () => ACCOUNT_PAGE_HEADERS;

type Params = Record<string, string | undefined>;

/** The routes' `handle`: the document's language. */
export const accountPageHandle = { lang: (params: Params): Lang => (isLang(params.lang) ? params.lang : "en") };

/** The page's language from its path (`de` or `en`); any other is a 404 with the pages' headers. */
export function accountLangOf(params: Params): Lang {
  if (!isLang(params.lang)) throw json({ lang: "en" }, { status: 404, headers: ACCOUNT_PAGE_HEADERS });
  return params.lang;
}

/** The loader of a page that needs nothing but its language (the link pages read their token in the browser). */
export const accountPageLoader = ({ params }: { params: Params }) => json({ lang: accountLangOf(params) }, { headers: ACCOUNT_PAGE_HEADERS });

function Page({ lang, title, children }: { lang: Lang; title: string; children: ReactNode }) {
  const t = accountTexts(lang);
  return (
    <main lang={lang} className="account-page" style={{ maxWidth: "30rem", margin: "0 auto", padding: "var(--space-6) var(--space-4)" }}>
      <p className="muted" style={{ margin: 0 }}>
        <a href={`/${lang}/lists`}>{t.siteName}</a>
      </p>
      <h1 style={{ fontSize: "var(--text-xl)" }}>{title}</h1>
      {children}
    </main>
  );
}

const fieldStyle = { display: "grid", gap: "var(--space-1)", margin: "0 0 var(--space-4)" } as const;

export type ForgotAnswer = { ok: true } | { ok: false; error: string; email: string };

/** "Forgot password?": an address, and always the same answer (no account enumeration). Works without scripts. */
export function ForgotPasswordPage({ lang }: { lang: Lang }) {
  const t = accountTexts(lang);
  const answer = useActionData<ForgotAnswer>();
  if (answer?.ok) {
    return (
      <Page lang={lang} title={t.forgotTitle}>
        <p role="status" className="notice">
          {t.forgotSent}
        </p>
        <p>
          <a href={`/${lang}/lists`}>{t.backToLists}</a>
        </p>
      </Page>
    );
  }
  const failed = answer && !answer.ok ? answer : null;
  return (
    <Page lang={lang} title={t.forgotTitle}>
      <p>{t.forgotIntro}</p>
      <Form method="post" reloadDocument>
        {failed ? (
          <p role="alert" id="forgot-error" className="alert">
            {accountErrorText(lang, failed.error)}
          </p>
        ) : null}
        <div style={fieldStyle}>
          <label htmlFor="forgot-email">{t.email}</label>
          <input
            id="forgot-email"
            type="email"
            name="email"
            autoComplete="username"
            required
            maxLength={320}
            defaultValue={failed?.email ?? ""}
            aria-invalid={failed ? true : undefined}
            aria-describedby={failed ? "forgot-error" : undefined}
          />
        </div>
        <button type="submit" className="btn-primary">
          {t.sendLink}
        </button>
      </Form>
    </Page>
  );
}

/** The link's token from `#token=…`, read once; the fragment is then removed from the address bar and history. */
function useLinkToken(): { token: string | null; ready: boolean } {
  const [state, setState] = useState<{ token: string | null; ready: boolean }>({ token: null, ready: false });
  useEffect(() => {
    const token = new URLSearchParams(window.location.hash.slice(1)).get("token");
    if (window.location.hash) history.replaceState(history.state, "", window.location.pathname + window.location.search);
    setState({ token, ready: true });
  }, []);
  return state;
}

const codeOf = (err: unknown) => (err instanceof ApiFailure ? err.code : "failed");

interface Session {
  access_token: string;
  user: { email: string };
}

/** The recovery link's page: a new password; the link is used when it is saved. */
export function ResetPasswordPage({ lang }: { lang: Lang }) {
  const t = accountTexts(lang);
  const { token, ready } = useLinkToken();
  const [state, setState] = useState<{ phase: "form" | "busy" | "done"; error: string | null }>({ phase: "form", error: null });
  // A used link gives a session once: a retry after a refused password goes on with it.
  const session = useRef<Session | null>(null);
  const password = useRef<HTMLInputElement>(null);
  const noLink = ready && !token;
  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!token || state.phase === "busy") return;
    setState({ phase: "busy", error: null });
    try {
      session.current ??= await call<Session>("/auth/verify", { body: { type: "recovery", token } });
      await call("/auth/user", { method: "PUT", body: { password: password.current?.value ?? "" }, accessToken: session.current.access_token });
      // Signed in on this site with the session the link opened (every other one has ended).
      await callSite("/session/cookie", { body: { access_token: session.current.access_token } });
      setState({ phase: "done", error: null });
    } catch (err) {
      setState({ phase: "form", error: codeOf(err) });
      password.current?.focus();
    }
  }
  if (state.phase === "done") {
    return (
      <Page lang={lang} title={t.resetTitle}>
        <p role="status" className="notice">
          {t.resetDone}
        </p>
        <p>
          <a className="btn-primary" href={`/${lang}/lists`}>
            {t.backToLists}
          </a>
        </p>
      </Page>
    );
  }
  return (
    <Page lang={lang} title={t.resetTitle}>
      <noscript>
        <p className="alert">{t.needsScript}</p>
      </noscript>
      {noLink ? (
        <p role="alert" className="alert">
          {t.errors.otp_expired} <a href={`/${lang}/account/forgot`}>{t.forgotTitle}</a>
        </p>
      ) : (
        <>
          <p>{t.resetIntro}</p>
          <form method="post" onSubmit={submit} aria-busy={state.phase === "busy"}>
            {state.error ? (
              <p role="alert" id="reset-error" className="alert">
                {accountErrorText(lang, state.error)}
                {state.error === "otp_expired" ? (
                  <>
                    {" "}
                    <a href={`/${lang}/account/forgot`}>{t.forgotTitle}</a>
                  </>
                ) : null}
              </p>
            ) : null}
            <div style={fieldStyle}>
              <label htmlFor="reset-password">{t.newPassword}</label>
              <input
                id="reset-password"
                ref={password}
                type="password"
                name="password"
                autoComplete="new-password"
                required
                minLength={8}
                aria-describedby={["reset-hint", state.error ? "reset-error" : ""].filter(Boolean).join(" ")}
                aria-invalid={state.error ? true : undefined}
              />
              <p id="reset-hint" className="muted" style={{ margin: 0 }}>
                {t.passwordHint}
              </p>
            </div>
            <button type="submit" className="btn-primary" disabled={!ready || state.phase === "busy"}>
              {t.savePassword}
            </button>
          </form>
        </>
      )}
    </Page>
  );
}

/** The new address's confirmation link: one button; the address changes when it is pressed. */
export function ConfirmEmailPage({ lang }: { lang: Lang }) {
  const t = accountTexts(lang);
  const { token, ready } = useLinkToken();
  const [state, setState] = useState<{ phase: "form" | "busy" | "done"; error: string | null; email?: string }>({ phase: "form", error: null });
  async function confirm() {
    if (!token) return;
    setState({ phase: "busy", error: null });
    try {
      const session = await call<Session>("/auth/verify", { body: { type: "email_change", token } });
      setState({ phase: "done", error: null, email: session.user.email });
    } catch (err) {
      setState({ phase: "form", error: codeOf(err) });
    }
  }
  return (
    <Page lang={lang} title={t.confirmTitle}>
      <noscript>
        <p className="alert">{t.needsScript}</p>
      </noscript>
      {state.phase === "done" ? (
        <>
          <p role="status" className="notice">
            {t.confirmDone(state.email ?? "")}
          </p>
          <p>
            <a href={`/${lang}/lists`}>{t.backToLists}</a>
          </p>
        </>
      ) : ready && !token ? (
        <p role="alert" className="alert">
          {t.errors.otp_expired}
        </p>
      ) : (
        <>
          {state.error ? (
            <p role="alert" className="alert">
              {accountErrorText(lang, state.error)}
            </p>
          ) : null}
          {/* A used or expired link stays so: no button to press again. */}
          {state.error === "otp_expired" ? null : (
            <button type="button" className="btn-primary" onClick={confirm} disabled={!ready || state.phase === "busy"} aria-busy={state.phase === "busy"}>
              {t.confirmButton}
            </button>
          )}
        </>
      )}
    </Page>
  );
}
