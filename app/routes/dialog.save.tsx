// The hosted save dialog (SPEC 4.7 {hosted_save_url}), opened by widget.js in
// a popup as /dialog/save#token=…&product=…&locale=… (docs/storefront-protocol.md).
// Everything happens in the browser: the widget token arrives in the fragment,
// which never reaches the server, so the server renders only the shell.
import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { useCallback, useEffect, useRef, useState } from "react";
import { accentStyle } from "~/hosted-pages/accent";
import { ApiFailure, call, formatPrice, tell, widgetClaims, type WidgetTokenClaims } from "~/hosted-pages/client";
import { errorText, langOf, texts, type Lang } from "~/hosted-pages/i18n";
import { currentSession, signIn, signOut, signUpGuest, type UserSession } from "~/hosted-pages/session";
import { urlKey } from "~/sdk/url-key";
import designCss from "~/hosted-pages/design.css?url";
import dialogCss from "~/hosted-pages/dialog.css?url";
import type { DialogProduct } from "~/sdk/protocol";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: designCss },
  { rel: "stylesheet", href: dialogCss },
];
export const meta: MetaFunction = () => [{ title: "Wishlist" }, { name: "robots", content: "noindex" }];

type Product = DialogProduct;

interface Context {
  token: string;
  claims: WidgetTokenClaims;
  product: Product;
  locale: string;
  /** The shop's basket colour, when it has one. */
  accent: string | null;
}

interface ListChoice {
  /** The list's share token (item routes address lists by it). */
  id: string;
  db_id: number;
  name: string;
  productCount: number;
}

/** Where the product sits in the shopper's lists. */
interface Placement {
  itemId: number;
  list: ListChoice;
}

type Screen =
  | { name: "loading" }
  | { name: "no-context" }
  | { name: "welcome" }
  | { name: "auth"; mode: "signin" | "signup" }
  | { name: "pick"; placement: Placement }
  | { name: "saved"; placement: Placement; already: boolean }
  | { name: "removed"; listName: string }
  | { name: "failed" };

const CONTEXT_KEY = "wish:dialog";
/** The list a shopper saved to last, per user (first-party storage of APP_URL). */
const LAST_LIST_KEY = "wish:last-list";
/** How long the confirmation of a one-click save stays before the dialog closes itself. */
const AUTO_CLOSE_MS = 4000;

/** The dialog's context from the fragment (then removed from the address bar), or from this window's earlier load. */
function readContext(): Context | null {
  const hash = new URLSearchParams(location.hash.slice(1));
  let raw = hash.get("token")
    ? { token: hash.get("token"), product: hash.get("product"), locale: hash.get("locale"), accent: hash.get("accent") }
    : null;
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
  return { token: raw.token, claims, product, locale: raw.locale ?? "de-DE", accent: raw.accent ?? null };
}

function lastListOf(userId: string): number | null {
  try {
    const last = JSON.parse(localStorage.getItem(LAST_LIST_KEY) ?? "null");
    return last?.user === userId && typeof last.list === "number" ? last.list : null;
  } catch {
    return null;
  }
}

function rememberList(userId: string, list: number): void {
  try {
    localStorage.setItem(LAST_LIST_KEY, JSON.stringify({ user: userId, list }));
  } catch {
    /* no storage: the default list next time */
  }
}

/** The picker's counts follow what this dialog did (the lists were read before it). */
const counted = (lists: ListChoice[], listId: number, by: number) =>
  lists.map((l) => (l.db_id === listId ? { ...l, productCount: Math.max(0, l.productCount + by) } : l));

export default function SaveDialog() {
  const [ctx, setCtx] = useState<Context | null>(null);
  const [lang, setLang] = useState<Lang>("en");
  const [screen, setScreen] = useState<Screen>({ name: "loading" });
  const [session, setSession] = useState<UserSession | null>(null);
  const [lists, setLists] = useState<ListChoice[]>([]);
  const [chosen, setChosen] = useState<number | null>(null);
  const [shown, setShown] = useState<Product | null>(null);
  const [error, setError] = useState<{ text: string; retry?: () => void } | null>(null);
  const [busy, setBusy] = useState(false);
  const [closing, setClosing] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const t = texts(lang);

  const fail = useCallback(
    (err: unknown, retry?: () => void) => {
      const code = err instanceof ApiFailure ? err.code : "network";
      setError({ text: errorText(t, lang, code), retry: code === "network" ? retry : undefined });
    },
    [t, lang],
  );

  /** A call with the shopper's access token; an expired one is renewed once from the site session. */
  const withSession = useCallback(async <T,>(s: UserSession, work: (s: UserSession) => Promise<T>): Promise<T> => {
    try {
      return await work(s);
    } catch (err) {
      if (!(err instanceof ApiFailure && err.status === 401)) throw err;
      const fresh = await currentSession(true);
      if (!fresh) throw err;
      setSession(fresh);
      return work(fresh);
    }
  }, []);

  // The shopper's lists, creating the default list for a new shopper.
  const loadLists = useCallback(async (c: Context, s: UserSession) => {
    const get = () => call<{ lists: ListChoice[] }>("/widget/lists", { body: {}, widgetToken: c.token, accessToken: s.access_token });
    let { lists } = await get();
    if (lists.length === 0) {
      await call(`/hosted/me/init?lang=${langOf(c.locale)}`, { body: {}, accessToken: s.access_token });
      ({ lists } = await get());
    }
    setLists(lists);
    return lists;
  }, []);

  /** Lets the shop page recognise the shopper from now on (a partner-scoped grant, docs/storefront-protocol.md). */
  const grant = useCallback(async (c: Context, s: UserSession) => {
    await call("/widget/session-store", { body: { access_token: s.access_token, sid: c.claims.sid }, widgetToken: c.token });
    tell(window.opener, c.claims.origin, { type: "session" });
  }, []);

  const announceSaved = (c: Context, placement: Placement, productId: number | null = null) =>
    tell(window.opener, c.claims.origin, {
      type: "saved",
      item: { item_id: placement.itemId, product_id: productId, wishlist_id: placement.list.db_id, wishlist_name: placement.list.name, product: c.product },
    });

  const saveTo = useCallback(
    async (c: Context, s: UserSession, list: ListChoice) => {
      const result = await withSession(s, (fresh) =>
        call<{ item_id: number; product_id: number }>("/widget/save", {
          // siteDomain: the shop's checkout metadata is kept only for saves from its own origin (SPEC 2.6).
          body: { wishlistId: list.db_id, product: c.product, siteDomain: new URL(c.claims.origin).hostname },
          widgetToken: c.token,
          accessToken: fresh.access_token,
        }),
      );
      rememberList(s.user.id, list.db_id);
      setLists((all) => counted(all, list.db_id, 1));
      const placement = { itemId: result.item_id, list };
      announceSaved(c, placement, result.product_id);
      await grant(c, s).catch(() => undefined); // recognition on the page is a convenience; the save stands
      setClosing(true);
      setScreen({ name: "saved", placement, already: false });
    },
    [grant, withSession],
  );

  // A session is in place: show where the product is saved, or save it at once (one click for a returning shopper).
  const arrive = useCallback(
    async (c: Context, s: UserSession) => {
      setSession(s);
      setError(null);
      try {
        const all = await withSession(s, (fresh) => loadLists(c, fresh));
        const saved = await call<{ products: Array<{ item_id: number; wishlist_id: number; url: string | null; source_partner_id: number | null }> }>(
          "/widget/saved-products",
          { widgetToken: c.token, accessToken: s.access_token },
        );
        const key = urlKey(c.product.url);
        const match = saved.products.find((p) => p.url && urlKey(p.url) === key);
        const matchList = match && all.find((l) => l.db_id === match.wishlist_id);
        if (match && matchList) {
          setScreen({ name: "saved", placement: { itemId: match.item_id, list: matchList }, already: true });
          // Saved through this shop, but the page may have lost what it held (storage cleared, another sid).
          if (match.source_partner_id === c.claims.partnerId) await grant(c, s).catch(() => undefined);
          return;
        }
        const last = lastListOf(s.user.id);
        await saveTo(c, s, all.find((l) => l.db_id === last) ?? all[0]);
      } catch (err) {
        setScreen({ name: "failed" });
        fail(err, () => void arrive(c, s));
      }
    },
    [fail, grant, loadLists, saveTo, withSession],
  );

  useEffect(() => {
    const c = readContext();
    const l = langOf(c?.locale ?? navigator.language);
    setLang(l);
    document.documentElement.lang = l;
    if (!c) return setScreen({ name: "no-context" });
    setCtx(c);
    setShown(c.product);
    // A button with only a URL: the title, image and price come from the product page.
    if (!c.product.title) {
      call<{ result: { success: boolean; product?: { title: string | null; image_url: string | null; price_minor: number | null; currency: string | null } } }>(
        "/widget/prefetch",
        { body: { url: c.product.url, market: c.product.marketCode }, widgetToken: c.token },
      )
        .then(({ result }) => {
          const p = result.success ? result.product : undefined;
          if (!p) return;
          setShown((prev) => ({
            ...(prev ?? c.product),
            title: p.title ?? undefined,
            imageUrl: prev?.imageUrl ?? p.image_url ?? undefined,
            price: prev?.price ?? p.price_minor ?? undefined,
            currency: prev?.currency ?? p.currency ?? undefined,
          }));
        })
        .catch(() => undefined);
    }
    const onHide = () => tell(window.opener, c.claims.origin, { type: "close" });
    window.addEventListener("pagehide", onHide);
    const start = async () => {
      try {
        const s = await currentSession();
        if (s) await arrive(c, s);
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
  }, [screen]);

  // After a one-click save the dialog closes itself, unless the shopper starts using it.
  useEffect(() => {
    if (!closing || !ctx) return;
    const timer = setTimeout(() => {
      tell(window.opener, ctx.claims.origin, { type: "close" });
      window.close();
    }, AUTO_CLOSE_MS);
    const stay = () => setClosing(false);
    const events = ["pointerdown", "keydown", "wheel", "touchstart"] as const;
    events.forEach((e) => window.addEventListener(e, stay, { once: true }));
    return () => {
      clearTimeout(timer);
      events.forEach((e) => window.removeEventListener(e, stay));
    };
  }, [closing, ctx]);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    setClosing(false);
    try {
      await work();
    } finally {
      setBusy(false);
    }
  };

  const continueAsGuest = () =>
    run(async () => {
      try {
        await arrive(ctx!, await signUpGuest());
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
          });
        }
        await arrive(ctx!, next);
      } catch (err) {
        fail(err);
      }
    });

  const createList = (name: string) =>
    run(async () => {
      try {
        const created = await withSession(session!, (s) =>
          call<{ list: ListChoice }>("/hosted/me/lists", { body: { name }, accessToken: s.access_token }),
        );
        setLists((all) => [created.list, ...all]);
        setChosen(created.list.db_id);
      } catch (err) {
        fail(err, () => void createList(name));
      }
    });

  // "Change list": the saved item moves to the chosen list.
  const moveTo = (placement: Placement) =>
    run(async () => {
      const target = lists.find((l) => l.db_id === chosen);
      if (!target || target.db_id === placement.list.db_id) return setScreen({ name: "saved", placement, already: true });
      try {
        const moved = await withSession(session!, (s) =>
          call<{ item: { item_id: number } }>(
            `/hosted/lists/${encodeURIComponent(placement.list.id)}/items/${placement.itemId}/move`,
            { body: { target: target.id }, accessToken: s.access_token },
          ),
        );
        const next = { itemId: moved.item.item_id, list: target };
        rememberList(session!.user.id, target.db_id);
        setLists((all) => counted(counted(all, placement.list.db_id, -1), target.db_id, 1));
        announceSaved(ctx!, next);
        setScreen({ name: "saved", placement: next, already: false });
      } catch (err) {
        fail(err, () => void moveTo(placement));
      }
    });

  const remove = (placement: Placement) =>
    run(async () => {
      const c = ctx!;
      try {
        await withSession(session!, (s) =>
          call(`/widget/saved-products/${placement.itemId}`, { method: "DELETE", widgetToken: c.token, accessToken: s.access_token }),
        );
        tell(window.opener, c.claims.origin, { type: "removed", item: { item_id: placement.itemId, product: c.product } });
        setLists((all) => counted(all, placement.list.db_id, -1));
        setScreen({ name: "removed", listName: placement.list.name });
      } catch (err) {
        fail(err, () => void remove(placement));
      }
    });

  const leave = () =>
    run(async () => {
      if (session) await signOut(session);
      setSession(null);
      setLists([]);
      setScreen({ name: "welcome" });
    });

  const closeDialog = () => {
    tell(window.opener, ctx!.claims.origin, { type: "close" });
    window.close();
  };

  const myLists = `/${lang}/lists`;
  const productBox = shown && <ProductSummary product={shown} lang={lang} t={t} />;
  const alert = error && (
    <div className="alert" role="alert">
      <p style={{ margin: 0 }}>{error.text}</p>
      {error.retry && (
        <button type="button" className="btn-link" onClick={error.retry}>
          {t.retry}
        </button>
      )}
    </div>
  );
  const accountFooter = session && (
    <div className="footer">
      {session.user.is_anonymous ? (
        <>
          <span className="muted">{t.guestNote}</span>
          <button type="button" className="btn-link" onClick={() => (setClosing(false), setScreen({ name: "auth", mode: "signup" }))}>
            {t.keepLists}
          </button>
        </>
      ) : (
        <>
          <span className="muted">{t.signedInAs(session.user.email ?? "")}</span>
          <button type="button" className="btn-link" onClick={() => void leave()}>
            {t.signOut}
          </button>
        </>
      )}
    </div>
  );

  return (
    <main className="dialog" style={accentStyle(ctx?.accent)} aria-busy={busy || screen.name === "loading"}>
      {screen.name === "loading" && (
        <>
          {/* The same frame as the screens that follow, so nothing jumps when one arrives. */}
          <h1>{t.titleSave}</h1>
          {productBox}
          <p className="muted">{t.loading}</p>
        </>
      )}

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
            <button type="button" className="btn-primary" disabled={busy} onClick={continueAsGuest}>
              {t.guest}
            </button>
            <button type="button" className="btn" disabled={busy} onClick={() => (setError(null), setScreen({ name: "auth", mode: "signin" }))}>
              {t.signIn}
            </button>
            <button type="button" className="btn" disabled={busy} onClick={() => (setError(null), setScreen({ name: "auth", mode: "signup" }))}>
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
            onBack={() => (setError(null), setScreen({ name: "welcome" }))}
          />
        </>
      )}

      {screen.name === "saved" && (
        <>
          <h1 ref={heading} tabIndex={-1}>
            {screen.already ? t.alreadySaved(screen.placement.list.name) : t.savedTo(screen.placement.list.name)}
          </h1>
          {productBox}
          {alert}
          <div className="stack">
            <a className="btn-primary" href={myLists} target="_blank" rel="noopener">
              {t.viewMyLists}
            </a>
            <button
              type="button"
              className="btn"
              disabled={busy}
              onClick={() => (setError(null), setChosen(screen.placement.list.db_id), setScreen({ name: "pick", placement: screen.placement }))}
            >
              {t.changeList}
            </button>
            {screen.already && (
              <button type="button" className="btn" disabled={busy} onClick={() => void remove(screen.placement)}>
                {busy ? t.removing : t.remove}
              </button>
            )}
            <button type="button" className="btn-link" onClick={closeDialog}>
              {t.close}
            </button>
          </div>
          {accountFooter}
          {/* Last on the screen: when it goes, nothing above it moves under the shopper's pointer. */}
          <p className="muted" role="status">
            {closing ? t.closingSoon : ""}
          </p>
        </>
      )}

      {screen.name === "pick" && session && (
        <>
          <h1 ref={heading} tabIndex={-1}>
            {t.chooseList}
          </h1>
          {productBox}
          {alert}
          <fieldset>
            <legend className="visually-hidden">{t.chooseList}</legend>
            {lists.map((l) => (
              <div className="choice" key={l.db_id}>
                <input type="radio" name="list" id={`list-${l.db_id}`} value={l.db_id} checked={chosen === l.db_id} onChange={() => setChosen(l.db_id)} />
                <label htmlFor={`list-${l.db_id}`}>
                  {l.name} <span className="muted">· {t.items(l.productCount)}</span>
                </label>
              </div>
            ))}
          </fieldset>
          <NewListForm t={t} busy={busy} onCreate={(name) => void createList(name)} />
          <div className="stack">
            <button type="button" className="btn-primary" disabled={busy || chosen === null} onClick={() => void moveTo(screen.placement)}>
              {busy ? t.saving : t.moveHere}
            </button>
            <button type="button" className="btn-link" onClick={() => setScreen({ name: "saved", placement: screen.placement, already: true })}>
              {t.back}
            </button>
          </div>
        </>
      )}

      {screen.name === "failed" && (
        <>
          <h1 ref={heading} tabIndex={-1}>
            {t.titleSave}
          </h1>
          {productBox}
          {alert}
          <button type="button" className="btn wide" onClick={closeDialog}>
            {t.close}
          </button>
          {accountFooter}
        </>
      )}

      {screen.name === "removed" && (
        <>
          <h1 ref={heading} tabIndex={-1}>
            {t.removedFrom(screen.listName)}
          </h1>
          {productBox}
          <div className="stack">
            <a className="btn" href={myLists} target="_blank" rel="noopener">
              {t.viewMyLists}
            </a>
            <button type="button" className="btn-primary" onClick={closeDialog}>
              {t.close}
            </button>
          </div>
        </>
      )}
    </main>
  );
}

function ProductSummary({ product, lang, t }: { product: Product; lang: Lang; t: ReturnType<typeof texts> }) {
  const price = formatPrice(product.price, product.currency, lang);
  const image = product.imageUrl && /^https?:\/\//.test(product.imageUrl) ? product.imageUrl : null;
  return (
    <div className="product card">
      {image ? <img src={image} alt="" width={72} height={72} /> : <div className="thumb placeholder" aria-hidden="true" />}
      <div>
        <div className="name">{product.title || t.thisProduct}</div>
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
      <button type="submit" className="btn-primary" disabled={busy}>
        {mode === "signin" ? t.signIn : t.signUp}
      </button>
      <button type="button" className="btn-link" onClick={props.onSwitch}>
        {mode === "signin" ? t.signUp : t.signIn}
      </button>
      <button type="button" className="btn-link" onClick={props.onBack}>
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
      <button type="submit" className="btn" disabled={busy || !name.trim()}>
        {t.create}
      </button>
    </form>
  );
}
