// The join page: a store customer joins the wishlist a Shopify store keeps for
// them with their own account of ours (docs/storefront-protocol.md, "Who is
// recognised how"). The store's wishlist page opens it in a popup as
// /dialog/link#token=…&locale=…; the link token stays in the fragment (never
// sent to a server) and leaves the address bar at once. Signed in with an
// e-mail account (or after signing in or up), the page first asks what the
// join would do (`POST /api/v1/hosted/link-shop-customer/preview`) and names
// the store, the store's customer account (e-mail masked) and what moves, so
// a link someone forwarded is recognisable; nothing is joined until the
// shopper confirms (`POST /api/v1/hosted/link-shop-customer`), and Cancel
// leaves everything as it was.
import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { useEffect, useRef, useState } from "react";
import { ApiFailure, call } from "~/hosted-pages/client";
import designCss from "~/hosted-pages/design.css?url";
import dialogCss from "~/hosted-pages/dialog.css?url";
import { errorText, langOf, texts, type Lang, type Texts } from "~/i18n/dialog";
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
  | { name: "confirm"; session: UserSession; preview: Preview }
  | { name: "blocked" }
  | { name: "auth"; mode: "signin" | "signup" }
  | { name: "joined"; items: number; already: boolean }
  | { name: "cancelled" };

interface Offer {
  token: string;
  /** The store's domain, from the token's claims: for the words only (the server verifies the token). */
  shop: string;
}

/** What the server says the join would do (POST /hosted/link-shop-customer/preview). */
interface Preview {
  shop: { domain: string; host: string; name: string | null };
  customer: { email_masked: string | null };
  moves: { lists: number; items: number };
  joined: boolean;
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

function Confirmation(props: { t: Texts; session: UserSession; preview: Preview; busy: boolean; onJoin: () => void; onCancel: () => void; onOther: () => void }) {
  const { t, session, preview, busy } = props;
  const { shop, customer, moves } = preview;
  const name = shop.name ?? shop.host;
  const nothing = moves.lists === 0 && moves.items === 0;
  return (
    <>
      <p className="join-question">{customer.email_masked ? t.joinQuestion(customer.email_masked, shop.host) : t.joinQuestionUnknown(name)}</p>
      <dl className="card join-facts">
        <div>
          <dt>{t.joinStore}</dt>
          <dd>
            <span className="join-strong">{name}</span>
            <span className="muted join-domains">{shop.host}</span>
            {shop.host === shop.domain ? null : <span className="muted join-domains">{shop.domain}</span>}
          </dd>
        </div>
        <div>
          <dt>{t.joinCustomer}</dt>
          <dd className="join-strong">{customer.email_masked ?? t.joinCustomerUnknown(name)}</dd>
        </div>
        <div>
          <dt>{t.joinMoves}</dt>
          <dd>{nothing ? t.joinMovesNothing : t.joinMovesText(moves.lists, moves.items)}</dd>
        </div>
        <div>
          <dt>{t.joinAccount}</dt>
          <dd>{session.user.email}</dd>
        </div>
      </dl>
      <p className="muted">{t.joinRecognise(shop.host)}</p>
      <p className="notice join-warning" role="note">
        {t.joinWarning(shop.host)}
      </p>
      <div className="join-actions">
        <button type="button" className="btn-primary" disabled={busy} onClick={props.onJoin}>
          {busy ? t.joining : t.joinConfirm}
        </button>
        <button type="button" className="btn" disabled={busy} onClick={props.onCancel}>
          {t.joinCancel}
        </button>
      </div>
      <p className="join-other">
        <button type="button" className="btn-link" disabled={busy} onClick={props.onOther}>
          {t.otherAccount}
        </button>
      </p>
    </>
  );
}

export default function JoinDialog() {
  const [lang, setLang] = useState<Lang>("en");
  const [offer, setOffer] = useState<Offer | null>(null);
  const [screen, setScreen] = useState<Screen>({ name: "loading" });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const t = texts(lang);

  // Each new screen is announced by moving focus to its heading.
  useEffect(() => {
    if (screen.name !== "loading") heading.current?.focus();
  }, [screen.name]);

  const run = async (work: () => Promise<void>, onError?: () => void) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(errorText(t, lang, err instanceof ApiFailure ? err.code : "network"));
      onError?.();
    } finally {
      setBusy(false);
    }
  };

  /** Asks what the join would do and shows it; nothing is joined before the shopper confirms. */
  const confirmFor = async (session: UserSession, token: string) => {
    const preview = await call<Preview>("/hosted/link-shop-customer/preview", { body: { link_token: token }, accessToken: session.access_token });
    setScreen(preview.joined ? { name: "joined", items: 0, already: true } : { name: "confirm", session, preview });
  };

  useEffect(() => {
    const read = readOffer();
    setLang(read.lang);
    document.documentElement.lang = read.lang;
    setOffer(read.offer);
    if (!read.offer) return setScreen({ name: "no-context" });
    const token = read.offer.token;
    const readT = texts(read.lang);
    currentSession()
      .then(async (s) => {
        if (!s || s.user.is_anonymous) return setScreen({ name: "auth", mode: "signin" });
        try {
          await confirmFor(s, token);
        } catch (err) {
          setError(errorText(readT, read.lang, err instanceof ApiFailure ? err.code : "network"));
          setScreen({ name: "blocked" });
        }
      })
      .catch(() => setScreen({ name: "auth", mode: "signin" }));
  }, []);

  const join = (session: UserSession) =>
    run(async () => {
      const res = await call<{ moved: { items: number } }>("/hosted/link-shop-customer", {
        body: { link_token: offer!.token },
        accessToken: session.access_token,
      });
      setScreen({ name: "joined", items: res.moved.items, already: false });
    });

  const authenticate = (mode: "signin" | "signup", email: string, password: string) =>
    run(async () => {
      const guest = await currentSession().catch(() => null);
      const next = await signIn(mode, email, password);
      // A guest of this site who signs in keeps the lists made as a guest, as in the save dialog.
      if (guest?.user.is_anonymous) {
        await call("/hosted/migrate-anonymous-to-provider", { body: { anonymous_access_token: guest.access_token }, accessToken: next.access_token });
      }
      await confirmFor(next, offer!.token).catch((err) => {
        setScreen({ name: "blocked" });
        throw err;
      });
    });

  const title =
    screen.name === "joined"
      ? t.joinedTitle
      : screen.name === "cancelled"
        ? t.joinCancelledTitle
        : screen.name === "confirm"
          ? t.joinConfirmTitle
          : screen.name === "auth" && screen.mode === "signup"
            ? t.signUp
            : t.titleJoin;
  const host = screen.name === "confirm" ? screen.preview.shop.host : (offer?.shop ?? "");
  return (
    <main className="dialog" aria-busy={busy || screen.name === "loading"}>
      <h1 ref={heading} tabIndex={-1}>
        {title}
      </h1>
      {screen.name === "loading" && <p className="muted">{t.loading}</p>}
      {screen.name === "no-context" && <p>{t.joinNoContext}</p>}
      {screen.name === "auth" && offer && <p>{t.joinIntro(offer.shop)}</p>}
      {error && (
        <div className="alert" role="alert">
          <p style={{ margin: 0 }}>{error}</p>
        </div>
      )}
      {screen.name === "confirm" && (
        <Confirmation
          t={t}
          session={screen.session}
          preview={screen.preview}
          busy={busy}
          onJoin={() => void join(screen.session)}
          onCancel={() => {
            setError(null);
            setScreen({ name: "cancelled" });
          }}
          onOther={() =>
            void run(async () => {
              await signOut(screen.session);
              setScreen({ name: "auth", mode: "signin" });
            })
          }
        />
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
      {screen.name === "joined" && (
        <p role="status">{screen.already ? t.joinAlready(host) : t.joined(host, screen.items)}</p>
      )}
      {screen.name === "cancelled" && <p role="status">{t.joinCancelled}</p>}
      {(screen.name === "joined" || screen.name === "cancelled" || screen.name === "blocked") && (
        <button type="button" className="btn-primary" onClick={() => window.close()}>
          {t.close}
        </button>
      )}
    </main>
  );
}
