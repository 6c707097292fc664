// The join page: a store customer joins the wishlist a Shopify store keeps for
// them with their own account of ours (docs/storefront-protocol.md, "Who is
// recognised how"). The store's wishlist page opens it in a popup as
// /dialog/link#token=…&locale=…; the link token stays in the fragment (never
// sent to a server) and leaves the address bar at once. Signed in with an
// e-mail account, the shopper confirms; otherwise they sign in or sign up
// first, and the join follows. The server does the rest
// (`POST /api/v1/hosted/link-shop-customer`).
import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { useEffect, useRef, useState } from "react";
import { ApiFailure, call } from "~/hosted-pages/client";
import designCss from "~/hosted-pages/design.css?url";
import dialogCss from "~/hosted-pages/dialog.css?url";
import { errorText, langOf, texts, type Lang } from "~/hosted-pages/i18n";
import { AuthForm } from "~/hosted-pages/save-dialog/parts";
import { currentSession, signIn, signOut, type UserSession } from "~/hosted-pages/session";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: designCss },
  { rel: "stylesheet", href: dialogCss },
];
export const meta: MetaFunction = () => [{ title: "Wishlist" }, { name: "robots", content: "noindex" }];

type Screen =
  | { name: "loading" }
  | { name: "no-context" }
  | { name: "confirm"; session: UserSession }
  | { name: "auth"; mode: "signin" | "signup" }
  | { name: "joined"; items: number };

interface Offer {
  token: string;
  /** The store's domain, from the token's claims: for the words only (the server verifies the token). */
  shop: string;
}

/** The offer in the fragment, which is then removed from the address bar and history. */
function readOffer(): { offer: Offer | null; lang: Lang } {
  const params = new URLSearchParams(location.hash.slice(1));
  const lang = langOf(params.get("locale") ?? navigator.language);
  const token = params.get("token") ?? "";
  history.replaceState(null, "", location.pathname);
  try {
    const claims = JSON.parse(atob(token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/")));
    if (typeof claims.shop_domain !== "string" || !(Number(claims.exp) * 1000 > Date.now())) return { offer: null, lang };
    return { offer: { token, shop: claims.shop_domain }, lang };
  } catch {
    return { offer: null, lang };
  }
}

export default function JoinDialog() {
  const [lang, setLang] = useState<Lang>("en");
  const [offer, setOffer] = useState<Offer | null>(null);
  const [screen, setScreen] = useState<Screen>({ name: "loading" });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const t = texts(lang);

  useEffect(() => {
    const read = readOffer();
    setLang(read.lang);
    document.documentElement.lang = read.lang;
    setOffer(read.offer);
    if (!read.offer) return setScreen({ name: "no-context" });
    currentSession()
      .then((s) => setScreen(s && !s.user.is_anonymous ? { name: "confirm", session: s } : { name: "auth", mode: "signin" }))
      .catch(() => setScreen({ name: "auth", mode: "signin" }));
  }, []);

  // Each new screen is announced by moving focus to its heading.
  useEffect(() => {
    if (screen.name !== "loading") heading.current?.focus();
  }, [screen.name]);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(errorText(t, lang, err instanceof ApiFailure ? err.code : "network"));
    } finally {
      setBusy(false);
    }
  };

  const join = (session: UserSession) =>
    run(async () => {
      const res = await call<{ moved: { items: number } }>("/hosted/link-shop-customer", {
        body: { link_token: offer!.token },
        accessToken: session.access_token,
      });
      setScreen({ name: "joined", items: res.moved.items });
    });

  const authenticate = (mode: "signin" | "signup", email: string, password: string) =>
    run(async () => {
      const guest = await currentSession().catch(() => null);
      const next = await signIn(mode, email, password);
      // A guest of this site who signs in keeps the lists made as a guest, as in the save dialog.
      if (guest?.user.is_anonymous) {
        await call("/hosted/migrate-anonymous-to-provider", { body: { anonymous_access_token: guest.access_token }, accessToken: next.access_token });
      }
      await join(next);
    });

  const title = screen.name === "joined" ? t.joinedTitle : screen.name === "auth" && screen.mode === "signup" ? t.signUp : t.titleJoin;
  return (
    <main className="dialog" aria-busy={busy || screen.name === "loading"}>
      <h1 ref={heading} tabIndex={-1}>
        {title}
      </h1>
      {screen.name === "loading" && <p className="muted">{t.loading}</p>}
      {screen.name === "no-context" && <p>{t.joinNoContext}</p>}
      {(screen.name === "confirm" || screen.name === "auth") && offer && <p>{t.joinIntro(offer.shop)}</p>}
      {error && (
        <div className="alert" role="alert">
          <p style={{ margin: 0 }}>{error}</p>
        </div>
      )}
      {screen.name === "confirm" && (
        <div className="stack">
          <button type="button" className="btn-primary" disabled={busy} onClick={() => void join(screen.session)}>
            {busy ? t.joining : t.joinAs(screen.session.user.email ?? "")}
          </button>
          <button
            type="button"
            className="btn"
            disabled={busy}
            onClick={() => void run(async () => {
              await signOut(screen.session);
              setScreen({ name: "auth", mode: "signin" });
            })}
          >
            {t.otherAccount}
          </button>
        </div>
      )}
      {screen.name === "auth" && (
        <AuthForm
          mode={screen.mode}
          t={t}
          busy={busy}
          onSubmit={(email, password) => void authenticate(screen.mode, email, password)}
          onSwitch={() => setScreen({ name: "auth", mode: screen.mode === "signin" ? "signup" : "signin" })}
          forgotUrl={`/${lang}/account/forgot`}
        />
      )}
      {screen.name === "joined" && offer && (
        <>
          <p role="status">{t.joined(offer.shop, screen.items)}</p>
          <button type="button" className="btn-primary" onClick={() => window.close()}>
            {t.close}
          </button>
        </>
      )}
    </main>
  );
}
