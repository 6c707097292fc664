// The save dialog's state and what the shopper can do in it: which screen is
// shown, the session, the lists, and the calls behind every button. The
// screens (screens.tsx) only render what this returns.
import { useCallback, useEffect, useRef, useState } from "react";
import { useFetcher } from "@remix-run/react";
import { ApiFailure, call, tell } from "../client";
import { errorText, langOf, texts, type Lang } from "~/i18n/dialog";
import { currentSession, signIn, signOut, signUpGuest, type UserSession } from "../session";
import { urlKey } from "~/sdk/url-key";
import { track } from "../analytics";
import { counted, hasDeclined, lastListOf, readContext, rememberList, setConsent, setDeclined, type Context, type AlertOfferAnswer, type ListChoice, type Placement, type Product, type Screen, type ShopNotice } from "./context";

/** How long the confirmation of a one-click save stays before the dialog closes itself. */
const AUTO_CLOSE_MS = 4000;

export type SaveDialog = ReturnType<typeof useSaveDialog>;

export function useSaveDialog() {
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
  const [shopNotice, setShopNotice] = useState<ShopNotice>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const t = texts(lang);
  // The alert offer (docs/alerts.md): asked of this page's own action with the site cookie, as soon as a shopper with an account arrives.
  const alerts = useFetcher<AlertOfferAnswer>({ key: "alert-offer" });
  const askAlerts = alerts.submit;

  const fail = useCallback(
    (err: unknown, retry?: () => void) => {
      const code = err instanceof ApiFailure ? err.code : "network";
      setError({ text: errorText(t, lang, code), retry: code === "network" ? retry : undefined });
    },
    [t, lang],
  );

  /** A call with the shopper's access token; an expired one is renewed once from the site session. */
  const withSession = useCallback(async <T>(s: UserSession, work: (s: UserSession) => Promise<T>): Promise<T> => {
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

  // The shopper's lists and which is the default one (init makes it for a new shopper).
  const loadLists = useCallback(async (c: Context, s: UserSession) => {
    const [{ lists }, init] = await Promise.all([
      call<{ lists: ListChoice[] }>("/widget/lists", { body: {}, widgetToken: c.token, accessToken: s.access_token }),
      call<{ list: ListChoice }>(`/hosted/me/init?lang=${langOf(c.locale)}`, { body: {}, accessToken: s.access_token }),
    ]);
    const all = lists.some((l) => l.db_id === init.list.db_id) ? lists : [init.list, ...lists];
    setLists(all);
    return { lists: all, defaultId: init.list.db_id };
  }, []);

  /**
   * Lets the shop page recognise the shopper from now on (a partner-scoped grant, docs/identity.md "Consent"):
   * the save in this dialog, which names the shop, is the consent; the first time per shop the saved screen
   * offers "Not on this shop". Nothing is granted to a shop the shopper declined, unless `stay`.
   */
  const grant = useCallback(async (c: Context, s: UserSession, stay = false) => {
    const partner = c.claims.partnerId ?? 0;
    if (!stay && hasDeclined(s.user.id, partner)) return setShopNotice("declined");
    const { new_shop } = await call<{ new_shop: boolean }>("/widget/session-store", {
      body: { access_token: s.access_token, sid: c.claims.sid },
      widgetToken: c.token,
    });
    setDeclined(s.user.id, partner, false);
    setShopNotice(new_shop ? "new" : null);
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
      track(c, "item_saved");
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
      // In parallel with the save, so the saved screen has its offer (or none) at once.
      if (!s.user.is_anonymous && s.user.email) askAlerts({ intent: "alerts-status" }, { method: "post", action: "/dialog/save" });
      try {
        const { lists: all, defaultId } = await withSession(s, (fresh) => loadLists(c, fresh));
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
        // The list saved to last, else the default list: never merely the list edited last (lists come newest first).
        const last = lastListOf(s.user.id);
        await saveTo(c, s, all.find((l) => l.db_id === last) ?? all.find((l) => l.db_id === defaultId)!);
      } catch (err) {
        setScreen({ name: "failed" });
        fail(err, () => void arrive(c, s));
      }
    },
    [askAlerts, fail, grant, loadLists, saveTo, withSession],
  );

  useEffect(() => {
    const c = readContext();
    const l = langOf(c?.locale ?? navigator.language);
    setLang(l);
    document.documentElement.lang = l;
    if (!c) return setScreen({ name: "no-context" });
    setCtx(c);
    setShown(c.product);
    track(c, "dialog_open");
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
    // The visitor changed their choice on the shop page while this dialog is open (a withdrawal stops its analytics).
    const onMessage = (ev: MessageEvent) => {
      const msg = ev.data;
      if (ev.source !== window.opener || ev.origin !== c.claims.origin || msg?.source !== "wish" || msg.type !== "consent") return;
      setConsent(typeof msg.consent === "string" ? msg.consent : null);
    };
    window.addEventListener("message", onMessage);
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
    return () => {
      window.removeEventListener("pagehide", onHide);
      window.removeEventListener("message", onMessage);
    };
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
          // The guest's last save stays the last save (a merged default list is the account's default then).
          const last = lastListOf(guest.user.id);
          if (last !== null) rememberList(next.user.id, last);
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
          // With the widget token: a list made here is this shop's too (its page may save into it).
          call<{ list: ListChoice }>("/hosted/me/lists", { body: { name }, accessToken: s.access_token, widgetToken: ctx!.token }),
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

  /** "Not on this shop": the shop forgets the shopper (grant and consent end), and is granted nothing later. */
  const notOnThisShop = () =>
    run(async () => {
      const c = ctx!;
      try {
        await withSession(session!, (s) => call("/widget/session-store", { method: "DELETE", widgetToken: c.token, accessToken: s.access_token }));
        setDeclined(session!.user.id, c.claims.partnerId ?? 0, true);
        setShopNotice("withdrawn");
        tell(window.opener, c.claims.origin, { type: "session" });
      } catch (err) {
        fail(err, () => void notOnThisShop());
      }
    });

  const stayOnShop = () =>
    run(async () => {
      try {
        await withSession(session!, (s) => grant(ctx!, s, true));
      } catch (err) {
        fail(err, () => void stayOnShop());
      }
    });

  const leave = () =>
    run(async () => {
      if (session) await signOut(session);
      setSession(null);
      setLists([]);
      setScreen({ name: "welcome" });
    });

  /** "Tell me when it gets cheaper…": the double opt-in for the account's address (a confirmation e-mail). */
  const acceptAlerts = () => {
    setClosing(false);
    askAlerts({ intent: "alerts-on", lang }, { method: "post", action: "/dialog/save" });
  };

  const closeDialog = () => {
    tell(window.opener, ctx!.claims.origin, { type: "close" });
    window.close();
  };

  return {
    ctx,
    lang,
    t,
    screen,
    session,
    lists,
    chosen,
    shown,
    error,
    busy,
    closing,
    heading,
    shopNotice,
    /** The shop's host from the widget token (verified at init against the key's allow-list; every call re-checks the token). */
    shopHost: ctx ? new URL(ctx.claims.origin).host : "",
    notOnThisShop,
    stayOnShop,
    /** What the alert offer shows: "off" offers, "pending" says to confirm, "on"/"none"/null (not known yet) nothing. */
    alertOffer: session && !session.user.is_anonymous ? (alerts.data?.offer ?? null) : null,
    alertError: alerts.data?.error ? errorText(t, lang, alerts.data.error) : null,
    alertBusy: alerts.state !== "idle",
    acceptAlerts,
    /** The shopper's "My lists" page on this origin. */
    myLists: `/${lang}/lists`,
    continueAsGuest,
    authenticate,
    createList,
    moveTo,
    remove,
    leave,
    closeDialog,
    choose: setChosen,
    /** Sign-in or sign-up form (from the welcome screen or the other form). */
    openAuth: (mode: "signin" | "signup") => (setError(null), setScreen({ name: "auth", mode })),
    backToWelcome: () => (setError(null), setScreen({ name: "welcome" })),
    /** A guest's way to an account that keeps the lists. */
    keepLists: () => (setClosing(false), setScreen({ name: "auth", mode: "signin" })),
    changeList: (placement: Placement) => (setError(null), setChosen(placement.list.db_id), setScreen({ name: "pick", placement })),
    backToSaved: (placement: Placement) => setScreen({ name: "saved", placement, already: true }),
  };
}
