// The hosted save dialog (SPEC 4.7 {hosted_save_url}), opened by widget.js in
// a popup as /dialog/save#token=…&product=…&locale=… (docs/storefront-protocol.md).
// Everything happens in the browser: the widget token arrives in the fragment,
// which never reaches the server, so the server renders only the shell.
import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { useCallback, useEffect, useRef, useState } from "react";
import { ApiFailure, call, formatPrice, tell, widgetClaims, type WidgetTokenClaims } from "~/storefront/client";
import { errorText, langOf, texts, type Lang } from "~/storefront/i18n";
import { currentSession, remember, signIn, signOut, signUpGuest, type UserSession } from "~/storefront/session";
import dialogCss from "~/storefront/dialog.css?url";
import type { DialogProduct } from "~/sdk/protocol";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: dialogCss }];
export const meta: MetaFunction = () => [{ title: "Wishlist" }, { name: "robots", content: "noindex" }];

type Product = DialogProduct;

interface Context {
  token: string;
  claims: WidgetTokenClaims;
  product: Product;
  locale: string;
}

interface ListChoice {
  db_id: number;
  name: string;
  productCount: number;
}

type Screen =
  | { name: "loading" }
  | { name: "no-context" }
  | { name: "welcome" }
  | { name: "auth"; mode: "signin" | "signup" }
  | { name: "pick" }
  | { name: "saved"; listName: string };

const CONTEXT_KEY = "wish:dialog";

/** The dialog's context from the fragment (then removed from the address bar), or from this window's earlier load. */
function readContext(): Context | null {
  const hash = new URLSearchParams(location.hash.slice(1));
  let raw = hash.get("token") ? { token: hash.get("token"), product: hash.get("product"), locale: hash.get("locale") } : null;
  if (raw) {
    history.replaceState(null, "", location.pathname);
    sessionStorage.setItem(CONTEXT_KEY, JSON.stringify(raw));
  } else {
    try {
      raw = JSON.parse(sessionStorage.getItem(CONTEXT_KEY) ?? "null");
    } catch {
      raw = null;
    }
  }
  if (!raw?.token) return null;
  const claims = widgetClaims(raw.token);
  let product: Product | null = null;
  try {
    product = JSON.parse(raw.product ?? "null");
  } catch {
    product = null;
  }
  if (!claims || !product || typeof product.url !== "string") return null;
  return { token: raw.token, claims, product, locale: raw.locale ?? "de-DE" };
}

export default function SaveDialog() {
  const [ctx, setCtx] = useState<Context | null>(null);
  const [lang, setLang] = useState<Lang>("en");
  const [screen, setScreen] = useState<Screen>({ name: "loading" });
  const [session, setSession] = useState<UserSession | null>(null);
  const [lists, setLists] = useState<ListChoice[]>([]);
  const [chosen, setChosen] = useState<number | null>(null);
  const [error, setError] = useState<{ text: string; retry?: () => void } | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const t = texts(lang);

  const fail = useCallback(
    (err: unknown, retry?: () => void) => {
      const code = err instanceof ApiFailure ? err.code : "network";
      setError({ text: errorText(t, lang, code), retry: code === "network" ? retry : undefined });
    },
    [t, lang],
  );

  // Lists of the shopper (creating the default list for a new one), then the picker.
  const loadLists = useCallback(
    async (c: Context, s: UserSession) => {
      const get = () => call<{ lists: ListChoice[] }>("/widget/lists", { body: {}, widgetToken: c.token, accessToken: s.access_token });
      let { lists } = await get();
      if (lists.length === 0) {
        await call(`/hosted/me/init?lang=${langOf(c.locale)}`, { body: {}, accessToken: s.access_token });
        ({ lists } = await get());
      }
      setLists(lists);
      setChosen((current) => (current && lists.some((l) => l.db_id === current) ? current : (lists[0]?.db_id ?? null)));
      setScreen({ name: "pick" });
    },
    [],
  );

  // A session is in place: hand it to the shop page's widget session, then pick a list.
  const enter = useCallback(
    async (c: Context, s: UserSession) => {
      setSession(s);
      setError(null);
      try {
        await call("/widget/session-store", {
          body: { access_token: s.access_token, refresh_token: s.refresh_token, sid: c.claims.sid },
          widgetToken: c.token,
        });
        tell(window.opener, c.claims.origin, { type: "session" });
        await loadLists(c, s);
      } catch (err) {
        fail(err, () => void enter(c, s));
      }
    },
    [fail, loadLists],
  );

  useEffect(() => {
    const c = readContext();
    const l = langOf(c?.locale ?? navigator.language);
    setLang(l);
    document.documentElement.lang = l;
    if (!c) return setScreen({ name: "no-context" });
    setCtx(c);
    const onHide = () => tell(window.opener, c.claims.origin, { type: "close" });
    window.addEventListener("pagehide", onHide);
    const start = async () => {
      try {
        const s = await currentSession();
        if (s) await enter(c, s);
        else setScreen({ name: "welcome" });
      } catch (err) {
        setScreen({ name: "welcome" });
        fail(err, () => void start());
      }
    };
    void start();
    return () => window.removeEventListener("pagehide", onHide);
    // Runs once per window: the context comes from the address it was opened with.
  }, []);

  // Screen changes move focus to the heading, so screen readers announce where they are.
  useEffect(() => {
    if (screen.name !== "loading") heading.current?.focus();
  }, [screen.name]);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } finally {
      setBusy(false);
    }
  };

  const continueAsGuest = () =>
    run(async () => {
      try {
        await enter(ctx!, await signUpGuest());
      } catch (err) {
        fail(err, continueAsGuest);
      }
    });

  const authenticate = (mode: "signin" | "signup", email: string, password: string) =>
    run(async () => {
      try {
        const guest = session?.user.is_anonymous ? await currentSession() : null;
        const next = await signIn(mode, email, password);
        // A guest who signs in keeps the lists made as a guest (SPEC account migration).
        if (guest) {
          await call("/hosted/migrate-anonymous-to-provider", {
            body: { anonymous_access_token: guest.access_token },
            accessToken: next.access_token,
          }).catch(() => undefined);
        }
        await enter(ctx!, remember(next));
      } catch (err) {
        fail(err);
      }
    });

  const createList = (name: string) =>
    run(async () => {
      try {
        const created = await call<{ list: ListChoice }>("/hosted/me/lists", { body: { name }, accessToken: session!.access_token });
        setLists((all) => [created.list, ...all]);
        setChosen(created.list.db_id);
      } catch (err) {
        fail(err, () => void createList(name));
      }
    });

  const save = () =>
    run(async () => {
      const c = ctx!;
      const list = lists.find((l) => l.db_id === chosen);
      if (!list) return;
      const attempt = async (s: UserSession, again: boolean): Promise<void> => {
        try {
          const result = await call<{ item_id: number; product_id: number }>("/widget/save", {
            // siteDomain: the shop's checkout metadata is kept only for saves from its own origin (SPEC 2.6).
            body: { wishlistId: list.db_id, product: c.product, siteDomain: new URL(c.claims.origin).hostname },
            widgetToken: c.token,
            accessToken: s.access_token,
          });
          tell(window.opener, c.claims.origin, {
            type: "saved",
            item: { item_id: result.item_id, product_id: result.product_id, wishlist_id: list.db_id, wishlist_name: list.name, product: c.product },
          });
          setScreen({ name: "saved", listName: list.name });
        } catch (err) {
          // An expired access token: refresh once and try again.
          if (again && err instanceof ApiFailure && err.status === 401) {
            const fresh = await currentSession(true);
            if (fresh) return attempt(fresh, false);
            setSession(null);
            setScreen({ name: "welcome" });
          }
          fail(err, () => void save());
        }
      };
      await attempt(session!, true);
    });

  const leave = () =>
    run(async () => {
      if (session) await signOut(session);
      setSession(null);
      setLists([]);
      setScreen({ name: "welcome" });
    });

  const productBox = ctx && <ProductSummary product={ctx.product} lang={lang} />;
  const alert = error && (
    <div className="alert" role="alert">
      <p style={{ margin: 0 }}>{error.text}</p>
      {error.retry && (
        <button type="button" className="link" onClick={error.retry}>
          {t.retry}
        </button>
      )}
    </div>
  );

  return (
    <main className="dialog" aria-busy={busy || screen.name === "loading"}>
      {screen.name === "loading" && <p>{t.loading}</p>}

      {screen.name === "no-context" && (
        <>
          <h1 ref={heading} tabIndex={-1}>
            {t.titleSave}
          </h1>
          <p>{t.noContext}</p>
        </>
      )}

      {screen.name === "welcome" && (
        <>
          <h1 ref={heading} tabIndex={-1}>
            {t.titleSave}
          </h1>
          {productBox}
          {alert}
          <p>{t.welcome}</p>
          <div className="stack">
            <button type="button" className="primary" disabled={busy} onClick={continueAsGuest}>
              {t.guest}
            </button>
            <button type="button" disabled={busy} onClick={() => (setError(null), setScreen({ name: "auth", mode: "signin" }))}>
              {t.signIn}
            </button>
            <button type="button" disabled={busy} onClick={() => (setError(null), setScreen({ name: "auth", mode: "signup" }))}>
              {t.signUp}
            </button>
          </div>
        </>
      )}

      {screen.name === "auth" && (
        <>
          <h1 ref={heading} tabIndex={-1}>
            {screen.mode === "signin" ? t.signIn : t.signUp}
          </h1>
          {alert}
          <AuthForm
            mode={screen.mode}
            t={t}
            busy={busy}
            onSubmit={(email, password) => void authenticate(screen.mode, email, password)}
            onSwitch={() => (setError(null), setScreen({ name: "auth", mode: screen.mode === "signin" ? "signup" : "signin" }))}
            onBack={() => (setError(null), setScreen(session ? { name: "pick" } : { name: "welcome" }))}
          />
        </>
      )}

      {screen.name === "pick" && session && (
        <>
          <h1 ref={heading} tabIndex={-1}>
            {t.titleSave}
          </h1>
          {productBox}
          {alert}
          <fieldset>
            <legend>{t.chooseList}</legend>
            {lists.map((l) => (
              <div className="choice" key={l.db_id}>
                <input
                  type="radio"
                  name="list"
                  id={`list-${l.db_id}`}
                  value={l.db_id}
                  checked={chosen === l.db_id}
                  onChange={() => setChosen(l.db_id)}
                />
                <label htmlFor={`list-${l.db_id}`}>
                  {l.name} <span className="muted">· {t.items(l.productCount)}</span>
                </label>
              </div>
            ))}
          </fieldset>
          <NewListForm t={t} busy={busy} onCreate={(name) => void createList(name)} />
          <button type="button" className="primary" style={{ width: "100%" }} disabled={busy || chosen === null} onClick={() => void save()}>
            {busy ? t.saving : t.save}
          </button>
          <div className="footer">
            {session.user.is_anonymous ? (
              <>
                <span className="muted">{t.guestNote}</span>
                <button type="button" className="link" onClick={() => setScreen({ name: "auth", mode: "signin" })}>
                  {t.keepLists}
                </button>
              </>
            ) : (
              <>
                <span className="muted">{t.signedInAs(session.user.email ?? "")}</span>
                <button type="button" className="link" onClick={() => void leave()}>
                  {t.signOut}
                </button>
              </>
            )}
          </div>
        </>
      )}

      {screen.name === "saved" && (
        <>
          <h1 ref={heading} tabIndex={-1}>
            {t.savedTo(screen.listName)}
          </h1>
          {productBox}
          <button
            type="button"
            className="primary"
            style={{ width: "100%" }}
            onClick={() => {
              tell(window.opener, ctx!.claims.origin, { type: "close" });
              window.close();
            }}
          >
            {t.close}
          </button>
        </>
      )}
    </main>
  );
}

function ProductSummary({ product, lang }: { product: Product; lang: Lang }) {
  const price = formatPrice(product.price, product.currency, lang);
  let name = product.title;
  if (!name) {
    try {
      name = new URL(product.url).hostname;
    } catch {
      name = product.url;
    }
  }
  return (
    <div className="product">
      {product.imageUrl && /^https:\/\//.test(product.imageUrl) && <img src={product.imageUrl} alt="" />}
      <div>
        <div className="name">{name}</div>
        {price && <div className="muted">{price}</div>}
      </div>
    </div>
  );
}

function AuthForm(props: {
  mode: "signin" | "signup";
  t: ReturnType<typeof texts>;
  busy: boolean;
  onSubmit: (email: string, password: string) => void;
  onSwitch: () => void;
  onBack: () => void;
}) {
  const { mode, t, busy } = props;
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        props.onSubmit(String(data.get("email") ?? ""), String(data.get("password") ?? ""));
      }}
    >
      <div>
        <label htmlFor="email">{t.email}</label>
        <input id="email" name="email" type="email" autoComplete="email" required />
      </div>
      <div>
        <label htmlFor="password">{t.password}</label>
        <input
          id="password"
          name="password"
          type="password"
          required
          minLength={mode === "signup" ? 8 : undefined}
          autoComplete={mode === "signin" ? "current-password" : "new-password"}
          aria-describedby={mode === "signup" ? "password-hint" : undefined}
        />
        {mode === "signup" && (
          <p id="password-hint" className="muted" style={{ margin: "0.25rem 0 0" }}>
            {t.passwordHint}
          </p>
        )}
      </div>
      <button type="submit" className="primary" disabled={busy}>
        {mode === "signin" ? t.signIn : t.signUp}
      </button>
      <button type="button" className="link" onClick={props.onSwitch}>
        {mode === "signin" ? t.signUp : t.signIn}
      </button>
      <button type="button" className="link" onClick={props.onBack}>
        {t.back}
      </button>
    </form>
  );
}

function NewListForm({ t, busy, onCreate }: { t: ReturnType<typeof texts>; busy: boolean; onCreate: (name: string) => void }) {
  const [name, setName] = useState("");
  return (
    <form
      className="row"
      style={{ marginBottom: "1rem" }}
      onSubmit={(e) => {
        e.preventDefault();
        if (name.trim()) onCreate(name.trim());
        setName("");
      }}
    >
      <div>
        <label htmlFor="new-list">{t.newListName}</label>
        <input id="new-list" type="text" maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <button type="submit" disabled={busy || !name.trim()}>
        {t.create}
      </button>
    </form>
  );
}
