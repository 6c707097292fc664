// "Connected shops" on My lists (docs/identity.md, "Joins and merges"): the
// shops joined with the account or allowed to recognise the shopper, with
// Disconnect. It talks to the API with the page's account session
// (`POST /session/token` → `GET /hosted/me/connections`,
// `DELETE /hosted/me/connections/{partnerId}`), so it needs scripts; without
// them it says so.
import { useCallback, useEffect, useRef, useState } from "react";
import type { Connection } from "~/domains/shop-customers/connections.server";
import { errorText, myListsTexts, type MyListsLang } from "~/domains/lists/my-lists-texts";
import { ApiFailure, call } from "~/hosted-pages/client";
import { currentSession } from "~/hosted-pages/session";

type State = { status: "loading" } | { status: "failed" } | { status: "ready"; connections: Connection[] };

async function accessToken(): Promise<string> {
  const session = await currentSession();
  if (!session) throw new ApiFailure(401, "unauthorized", "Not signed in");
  return session.access_token;
}

export function ConnectedShops({ lang }: { lang: MyListsLang }) {
  const texts = myListsTexts(lang);
  const t = texts.connections;
  const [state, setState] = useState<State>({ status: "loading" });
  const [confirming, setConfirming] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ partner: number; text: string } | null>(null);
  const [said, setSaid] = useState("");
  const heading = useRef<HTMLHeadingElement>(null);
  const confirmYes = useRef<HTMLButtonElement>(null);

  const load = useCallback(async () => {
    try {
      const token = await accessToken();
      const { connections } = await call<{ connections: Connection[] }>("/hosted/me/connections", { accessToken: token });
      setState({ status: "ready", connections });
    } catch {
      setState({ status: "failed" });
    }
  }, []);
  useEffect(() => void load(), [load]);
  // The question takes focus when it appears, so a keyboard or screen reader user lands on it.
  useEffect(() => {
    if (confirming !== null) confirmYes.current?.focus();
  }, [confirming]);

  const disconnect = async (c: Connection) => {
    setBusy(true);
    setError(null);
    try {
      await call(`/hosted/me/connections/${c.partner_id}`, { method: "DELETE", accessToken: await accessToken() });
      setConfirming(null);
      setSaid(t.disconnected(c.name));
      setState((s) => (s.status === "ready" ? { status: "ready", connections: s.connections.filter((x) => x.partner_id !== c.partner_id) } : s));
      heading.current?.focus();
    } catch (err) {
      setError({ partner: c.partner_id, text: errorText(lang, err instanceof ApiFailure ? err.code : "failed") });
    } finally {
      setBusy(false);
    }
  };

  const date = new Intl.DateTimeFormat(texts.locale, { dateStyle: "long" });
  return (
    <section className="card ml-card ml-connections" aria-labelledby="connected-shops" aria-busy={state.status === "loading" || busy}>
      <h2 id="connected-shops" ref={heading} tabIndex={-1}>
        {t.heading}
      </h2>
      <p className="muted">{t.intro}</p>
      <p role="status" className="ml-conn-said">
        {said}
      </p>
      <noscript>
        <p>{t.noScript}</p>
      </noscript>
      {state.status === "loading" ? <p className="muted ml-js-only">{t.loading}</p> : null}
      {state.status === "failed" ? (
        <div role="alert" className="alert">
          <p className="ml-conn-line">{t.failed}</p>
          <button type="button" className="btn" onClick={() => void load()}>
            {t.retry}
          </button>
        </div>
      ) : null}
      {state.status === "ready" && state.connections.length === 0 ? <p>{t.none}</p> : null}
      {state.status === "ready" && state.connections.length > 0 ? (
        <ul className="ml-conns">
          {state.connections.map((c) => {
            const asking = confirming === c.partner_id;
            const questionId = `conn-q-${c.partner_id}`;
            return (
              <li key={c.partner_id} className="ml-conn" data-partner={c.partner_id}>
                <div className="ml-conn-head">
                  <div className="ml-conn-who">
                    <p className="ml-conn-name">{c.name}</p>
                    <p className="muted ml-conn-line">
                      {c.name === c.host ? "" : `${c.host} · `}
                      {t.since(date.format(new Date(c.since)))}
                    </p>
                    <ul className="ml-conn-tags" aria-label={c.name}>
                      {c.joined ? <li>{t.joined}</li> : null}
                      {c.recognised ? <li>{t.recognised}</li> : null}
                    </ul>
                  </div>
                  {asking ? null : (
                    <button type="button" className="btn ml-danger" aria-label={t.disconnectLabel(c.name)} disabled={busy} onClick={() => setConfirming(c.partner_id)}>
                      {t.disconnect}
                    </button>
                  )}
                </div>
                {asking ? (
                  <div className="ml-conn-confirm" role="group" aria-labelledby={questionId}>
                    <p id={questionId}>{t.confirm(c.name)}</p>
                    <div className="ml-row">
                      <button ref={confirmYes} type="button" className="btn-primary ml-danger-fill" disabled={busy} onClick={() => void disconnect(c)}>
                        {busy ? t.disconnecting : t.confirmYes}
                      </button>
                      <button type="button" className="btn" disabled={busy} onClick={() => setConfirming(null)}>
                        {t.keep}
                      </button>
                    </div>
                  </div>
                ) : null}
                {error?.partner === c.partner_id ? (
                  <p role="alert" className="alert ml-form-error">
                    {error.text}
                  </p>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : null}
    </section>
  );
}
