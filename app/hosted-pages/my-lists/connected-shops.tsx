// "Connected shops" on My lists (docs/identity.md, "Joins and merges"): the
// shops joined with the account or allowed to recognise the shopper, from the
// page's data (server-rendered), with Disconnect. Disconnect asks first, then
// calls the API with the page's account session (`POST /session/token`,
// `DELETE /hosted/me/connections/{partnerId}`), so it needs scripts; without
// them the list is shown and a line says so.
import type { Lang } from "~/i18n/lang";
import { useEffect, useRef, useState } from "react";
import type { Connection } from "~/domains/shop-customers/connections.server";
import { errorText, myListsTexts } from "~/i18n/my-lists";
import { ApiFailure, call } from "~/hosted-pages/client";
import { currentSession } from "~/hosted-pages/session";

export function ConnectedShops({ lang, connections }: { lang: Lang; connections: Connection[] }) {
  const texts = myListsTexts(lang);
  const t = texts.connections;
  // The page's data, less what was disconnected here since it was loaded.
  const [gone, setGone] = useState<number[]>([]);
  const [confirming, setConfirming] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ partner: number; text: string } | null>(null);
  const [said, setSaid] = useState("");
  const heading = useRef<HTMLHeadingElement>(null);
  const confirmYes = useRef<HTMLButtonElement>(null);
  const shown = connections.filter((c) => !gone.includes(c.partner_id));

  // The question takes focus when it appears, so a keyboard or screen reader user lands on it.
  useEffect(() => {
    if (confirming !== null) confirmYes.current?.focus();
  }, [confirming]);

  const disconnect = async (c: Connection) => {
    setBusy(true);
    setError(null);
    try {
      const session = await currentSession();
      if (!session) throw new ApiFailure(401, "unauthorized", "Not signed in");
      await call(`/hosted/me/connections/${c.partner_id}`, { method: "DELETE", accessToken: session.access_token });
      setConfirming(null);
      setGone((g) => [...g, c.partner_id]);
      setSaid(t.disconnected(c.name));
      heading.current?.focus();
    } catch (err) {
      setError({ partner: c.partner_id, text: errorText(lang, err instanceof ApiFailure ? err.code : "failed") });
    } finally {
      setBusy(false);
    }
  };

  const date = new Intl.DateTimeFormat(texts.locale, { dateStyle: "long", timeZone: "UTC" });
  return (
    <section className="card ml-card ml-connections" aria-labelledby="connected-shops" aria-busy={busy}>
      <h2 id="connected-shops" ref={heading} tabIndex={-1}>
        {t.heading}
      </h2>
      <p className="muted">{t.intro}</p>
      <p role="status" className="ml-conn-said">
        {said}
      </p>
      {shown.length === 0 ? <p className="ml-conn-none">{t.none}</p> : null}
      {shown.length > 0 ? (
        <noscript>
          <p>{t.noScript}</p>
        </noscript>
      ) : null}
      {shown.length > 0 ? (
        <ul className="ml-conns">
          {shown.map((c) => {
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
                    <button
                      type="button"
                      className="btn ml-danger ml-js-only"
                      aria-label={t.disconnectLabel(c.name)}
                      disabled={busy}
                      onClick={() => setConfirming(c.partner_id)}
                    >
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
