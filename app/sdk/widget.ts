// widget.js: the save-to-wishlist button on shop pages (SPEC 4.7, 6.1). Global
// `WishWidget`; the popup flow and messages follow docs/storefront-protocol.md.
import type { DialogProduct } from "./protocol";
import {
  APP_URL,
  call,
  credentialOf,
  eachElement,
  changedRecently,
  getSid,
  noteChange,
  rememberChange,
  initWidget,
  isGerman,
  originOf,
  restoreShopper,
  stripSlash,
  tagAttr,
  widgetError,
  wishMessage,
  type InitResult,
  type ShopperCredential,
  type WidgetError,
} from "./common";
import { urlKey as productKey } from "./url-key";
import { customerShopper, type CustomerCredential } from "./shop-customer";
import { granted, onConsent, setConsent, watchConsent } from "./consent";

type Listener = (payload?: unknown) => void;
type Options = Record<string, unknown>;

type Product = DialogProduct;

export interface Handle {
  ready: Promise<{ token: string }>;
  close: () => void;
}

const str = (v: unknown) => (typeof v === "string" && v ? v : undefined);
const int = (v: unknown) => {
  const n = typeof v === "string" && v.trim() ? Number(v) : v;
  return typeof n === "number" && Number.isInteger(n) ? n : undefined;
};

const urlKey = (raw: string) => productKey(raw, location.href);

const urlOf = (o: Options) => str(o.productUrl) || str(o.url) || "";

/** SPEC 4.7 product options (with aliases) → the SaveProductInput the dialog receives. */
function toProduct(o: Options): Product | null {
  const raw = urlOf(o);
  if (!raw) return null;
  let url: string;
  try {
    url = new URL(raw, location.href).href;
  } catch {
    return null;
  }
  const id = o.productId ?? o.id;
  let metadata = o.metadata && typeof o.metadata === "object" ? { ...(o.metadata as Options) } : undefined;
  if (id !== undefined && id !== null && id !== "") metadata = { ...metadata, product_id: String(id) };
  return {
    url,
    title: str(o.title),
    description: str(o.description),
    imageUrl: str(o.imageUrl),
    price: int(o.price),
    currency: str(o.currency),
    marketCode: str(o.locale) || str(o.marketCode) || "de-DE",
    offerId: int(o.offerId),
    metadata,
  };
}

/** A `[data-wish]` button's attributes (SPEC 4.7 table) as product options. */
function buttonOptions(el: HTMLElement): Options {
  const d = el.dataset;
  let metadata: unknown;
  try {
    metadata = d.metadata ? JSON.parse(d.metadata) : undefined;
  } catch {
    metadata = undefined; // malformed JSON from the shop's template: save without it
  }
  return {
    url: d.url,
    id: d.id,
    offerId: d.offerId,
    title: d.title,
    description: d.description,
    imageUrl: d.imageUrl,
    price: d.price,
    currency: d.currency,
    marketCode: d.market,
    metadata,
  };
}

let styled = false;
/** The default look of plain-text buttons, once per page; `:where()` keeps it below any rule of the shop's. */
function defaultStyle() {
  if (styled) return;
  styled = true;
  const style = document.createElement("style");
  style.textContent =
    ':where(.wish-default)::before{content:"\\2661";margin-inline-end:.4em}:where(.wish-default.wish-saved)::before{content:"\\2665";color:#c8102e}';
  document.head.appendChild(style);
}

function hostAllowed(list: string[]): boolean {
  const host = location.hostname;
  if (!list.length || /^(localhost|127\.0\.0\.1|\[::1\])$/.test(host) || /\.localhost$/.test(host)) return true;
  return list.some((d) => (d.startsWith("*.") ? host.endsWith(d.slice(1)) && host.length > d.length - 1 : host === d));
}

function createInstance(initial?: Options, page = false) {
  const listeners: Record<string, Set<Listener>> = {};
  const buttons = new Map<HTMLElement, () => Options>();
  const cfg = {
    key: "",
    environment: "",
    locale: "",
    allowedDomains: [] as string[],
    apiBase: APP_URL,
    widgetUrl: APP_URL,
  };
  let initialised = false;
  // Set by subscription_required: the shop's trial ended, buttons stop opening the dialog.
  let disabled: WidgetError | null = null;
  let session: { at: number; init: Promise<InitResult> } | null = null;
  let shopper: ShopperCredential | CustomerCredential | null = null;
  /** Item ids of saved products by URL key: a store customer's click removes without the dialog. */
  const savedItems = new Map<string, number>();
  let popup: Window | null = null;
  let stopWatch: (() => void) | null = null;
  let listening = false;

  const emit = (event: string, payload?: unknown) => {
    listeners[event]?.forEach((cb) => {
      try {
        cb(payload);
      } catch (e) {
        setTimeout(() => {
          throw e; // a shop's listener error surfaces as its own, without breaking the widget
        });
      }
    });
  };

  const fail = (err: WidgetError): Handle => {
    emit("error", err);
    const ready = Promise.reject(err);
    ready.catch(() => undefined);
    return { ready, close: () => undefined };
  };

  const locale = () => cfg.locale || document.documentElement.lang || "de-DE";

  /** Init once per widget-token lifetime (10 min; renewed a minute early); the answer carries the page's saved state. */
  const widgetSession = () => {
    if (!session || Date.now() - session.at > 9 * 60_000) {
      const current = { at: Date.now(), init: initWidget(cfg.apiBase, cfg.key, true) };
      current.init.catch((err: WidgetError) => {
        if (session === current) session = null;
        if (err.code === "subscription_required") {
          err.trial_expired = true;
          disabled = err;
        }
      });
      session = current;
    }
    return session.init;
  };

  // Plain-text buttons get the default look: a heart before the label, filled and "Saved" once saved.
  const labels = new WeakMap<HTMLElement, string>();
  const showSaved = (el: HTMLElement, saved: boolean) => {
    el.setAttribute("aria-pressed", String(saved));
    el.setAttribute("data-wish-state", saved ? "saved" : "unsaved");
    el.classList.toggle("wish-saved", saved);
    const label = labels.get(el);
    if (label !== undefined) {
      const savedLabel = el.dataset.wishSavedLabel ?? (isGerman(locale()) ? "Gespeichert" : "Saved");
      el.textContent = saved && savedLabel ? savedLabel : label;
    }
  };

  // ---- Saved count: how many of this shop's products the shopper saved, for a
  // "count" listener (the app embed's header link). Fed by the same one request
  // that marks the buttons, then kept current by the dialog's messages.
  let savedKeys: Set<string> | null = null;
  const countSaved = (keys: Set<string>) => {
    savedKeys = keys;
    emit("count", keys.size);
  };
  const counting = () => !!listeners.count?.size;
  // Saves and removals the dialog announced: a read that began before one of them may be stale.
  let changes = 0;
  // The app embed's copy of a signed-in store customer's customer metafield mirror (their saved
  // handles, data-wish-saved-handles): the hearts' state without a request (docs/storefront.md).
  let mirror: string[] | null = null;
  try {
    const m = page && JSON.parse(tagAttr("saved-handles")!);
    if (Array.isArray(m)) mirror = m;
  } catch {
    /* none on the page */
  }

  // One read at a time: the one under way answers for every button and listener added meanwhile.
  let refreshing: Promise<void> | null = null;
  const refreshSaved = () => (refreshing ??= readSaved().finally(() => (refreshing = null)));

  /**
   * Marks buttons of products the shopper saved through this shop: from the mirror in the page, else a
   * signed-in store customer's (shop-customer.ts), else the partner-scoped credential for this sid, which
   * the page's init answers together with the saved products. No sid and no store: no network.
   */
  const readSaved = async (): Promise<void> => {
    if (!cfg.key || !(buttons.size || counting()) || disabled) return;
    const seen = changes;
    try {
      // The mirror until the page hears of a change (it lags a save by seconds), like the answers below.
      let list: InitResult["saved"] = mirror && !shopper && !changes ? mirror.map((h) => ({ url: location.origin + "/products/" + encodeURIComponent(h), item_id: 0 })) : undefined;
      if (!list && (!shopper || shopper.expiresAt * 1000 - Date.now() < 60_000)) {
        const customer = await customerShopper();
        // A guest with no widget session has saved nothing here: no init, no restore.
        if (!customer && !getSid()) return;
        // The answer that named the shopper (the proxy's, else init's) carries their saved products:
        // one request for every heart. Once a save, removal or new grant was announced here, read anew.
        const answer: InitResult | CustomerCredential = customer || (await widgetSession());
        if (answer.saved && !changes) list = answer.saved;
        shopper = customer || (list ? credentialOf((answer as InitResult).session) : await restoreShopper(cfg.apiBase, answer as InitResult));
      }
      if (!list) {
        list = [];
        if (shopper) {
          // Just changed in this browser (perhaps through another instance): the primary database, not a replica.
          const path = changedRecently() ? "/widget/saved-products?fresh=1" : "/widget/saved-products";
          const res = await call<{ products: NonNullable<InitResult["saved"]> }>(cfg.apiBase, path, {
            bearer: shopper.token,
            widgetToken: (await widgetSession()).token,
          }).catch((err: WidgetError) => {
            if (err.status === 401) shopper = null; // ended (sign-out elsewhere): unsaved until the next save
            throw err;
          });
          list = res.products;
        }
      }
      const saved = new Set<string>();
      savedItems.clear();
      for (const p of list) {
        if (!p.url) continue;
        saved.add(urlKey(p.url));
        if (p.item_id) savedItems.set(urlKey(p.url), p.item_id);
      }
      // A save or removal announced meanwhile may be missing from this answer: read again (the dialog announces after the write).
      if (changes !== seen) return await readSaved();
      buttons.forEach((opts, el) => showSaved(el, saved.has(urlKey(urlOf(opts())))));
      countSaved(saved);
    } catch (err) {
      // Saved state is decoration; only an init refusal is worth telling the shop.
      if ((err as WidgetError).code === "subscription_required") emit("error", err);
    }
  };

  const closed = () => {
    if (!stopWatch) return;
    stopWatch();
    stopWatch = null;
    emit("close");
  };

  /** One product saved or removed here: its buttons and the count follow. */
  const markSaved = (key: string, saved: boolean) => {
    changes++;
    noteChange(granted().includes("preferences"));
    buttons.forEach((opts, el) => urlKey(urlOf(opts())) === key && showSaved(el, saved));
    const keys = new Set(savedKeys);
    keys[saved ? "add" : "delete"](key);
    countSaved(keys);
  };

  const onMessage = (ev: MessageEvent) => {
    const msg = wishMessage(ev, originOf(cfg.widgetUrl), popup);
    if (!msg) return;
    if (msg.type === "saved" || msg.type === "removed") {
      const saved = msg.type === "saved";
      const url = (msg.item as { product?: { url?: string } } | undefined)?.product?.url;
      if (url) markSaved(urlKey(url), saved);
      emit(msg.type, msg.item);
    } else if (msg.type === "session") {
      shopper = null; // a new grant: fetch a fresh credential (a read under way reads again)
      changes++;
      void refreshSaved();
    }
    else if (msg.type === "close") closed();
  };

  function init(options: Options = {}) {
    const key = str(options.key) || str(options.publicKey);
    if (!key) {
      emit("error", widgetError("key_required", "WishWidget.init needs a public key (key)"));
      return api;
    }
    const domains = options.allowedDomains;
    Object.assign(cfg, {
      key,
      environment: str(options.environment) || (key.startsWith("pk_live_") ? "live" : "test"),
      locale: str(options.locale) || cfg.locale,
      allowedDomains: Array.isArray(domains)
        ? domains.map((d) => String(d).toLowerCase())
        : typeof domains === "string"
          ? domains.split(",").map((d) => d.trim().toLowerCase()).filter(Boolean)
          : cfg.allowedDomains,
      apiBase: str(options.apiBase) || cfg.apiBase,
      widgetUrl: str(options.widgetUrl) || cfg.widgetUrl,
    });
    if (options.consent !== undefined) setConsent(options.consent);
    initialised = true;
    session = null;
    if (!listening) {
      listening = true;
      addEventListener("message", onMessage);
    }
    void refreshSaved();
    return api;
  }

  /** Opens the save dialog; call inside a user gesture (the popup opens synchronously). */
  function open(options: Options = {}): Handle {
    if (!initialised) return fail(widgetError("not_initialised", "Call WishWidget.init({key}) first"));
    if (disabled) return fail(disabled);
    const product = toProduct(options);
    if (!product) return fail(widgetError("missing_url", "The product needs a url (data-url / productUrl)"));
    if (!hostAllowed(cfg.allowedDomains)) {
      return fail(widgetError("origin_not_allowed", location.hostname + " is not in allowedDomains"));
    }
    if (shopper && "listId" in shopper) return customerToggle(shopper, product);
    // The theme says a customer is signed in, and the proxy's answer is still on its way (a click
    // right after the page loaded): wait for it, up to a second, which the click's user activation
    // outlasts in case the dialog is needed after all.
    if (tagAttr("customer") === "1") {
      const answer = Promise.race([customerShopper(), new Promise<null>((resolve) => setTimeout(resolve, 1000, null))]);
      let handle: Handle | null = null;
      const ready = answer.then((customer) => (handle = customer ? customerToggle(customer, product) : openDialog(product)).ready);
      ready.catch(() => undefined);
      return { ready, close: () => handle?.close() };
    }
    return openDialog(product);
  }

  /** The save dialog in a popup, opened at once (inside the click), its address following the widget token. */
  function openDialog(product: Product): Handle {
    const win = window.open("about:blank", "wish-save", "popup,width=480,height=720");
    if (!win) return fail(widgetError("popup_blocked", "The browser blocked the popup: open() must run inside a click"));
    stopWatch?.(); // the named popup is reused: the earlier dialog's watch ends
    popup = win;
    const timer = setInterval(() => win.closed && closed(), 500);
    stopWatch = () => clearInterval(timer);
    const ready = widgetSession().then(
      (init) => {
        const fragment: Record<string, string> = { token: init.token, product: JSON.stringify(product), locale: locale() };
        // The dialog belongs to the shop: its basket colour becomes the dialog's accent.
        const color = (init.basketConfig as { primaryColor?: unknown } | null)?.primaryColor;
        if (typeof color === "string") fragment.accent = color;
        // What the visitor allowed beyond the save itself (docs/privacy.md); none: the key is left out.
        const consent = granted();
        if (consent) fragment.consent = consent;
        // Closed by the shopper while init ran: `close` was emitted, nothing to open.
        if (!win.closed) {
          win.location.href = stripSlash(cfg.widgetUrl) + "/dialog/save#" + new URLSearchParams(fragment).toString();
          emit("open", { token: init.token });
        }
        return { token: init.token };
      },
      (err: WidgetError) => {
        stopWatch?.();
        stopWatch = null;
        win.close();
        emit("error", err);
        throw err;
      },
    );
    ready.catch(() => undefined);
    return { ready, close: () => win.close() };
  }

  /** A signed-in store customer's click: saves to their list, or removes what is saved, without the dialog. */
  function customerToggle(customer: CustomerCredential, product: Product): Handle {
    const key = urlKey(product.url);
    const ready = widgetSession().then(async (init) => {
      const auth = { bearer: customer.token, widgetToken: init.token };
      let itemId = savedItems.get(key);
      // Saved by the mirror, which knows no item ids: read the customer's own (the proxy's answer), then remove.
      if (!itemId && savedKeys?.has(key)) {
        mirror = shopper = null;
        await readSaved();
        itemId = savedItems.get(key);
      }
      if (itemId) {
        await call(cfg.apiBase, "/widget/saved-products/" + itemId, { ...auth, method: "DELETE" });
        savedItems.delete(key);
        emit("removed", { item_id: itemId, product });
      } else {
        const res = await call<{ item_id: number; product_id: number }>(cfg.apiBase, "/widget/save", {
          ...auth,
          method: "POST",
          body: { wishlistId: customer.listId, product },
        });
        savedItems.set(key, res.item_id);
        emit("saved", { item_id: res.item_id, product_id: res.product_id, wishlist_id: customer.listId, product });
      }
      markSaved(key, !itemId);
      return { token: init.token };
    });
    ready.catch((err: WidgetError) => emit("error", err));
    return { ready, close: () => undefined };
  }

  function bind(el: HTMLElement, options: () => Options) {
    if (buttons.has(el)) return;
    buttons.set(el, options);
    if (!el.children.length && el.textContent?.trim()) {
      labels.set(el, el.textContent);
      el.classList.add("wish-default");
      defaultStyle();
    }
    // Known saved state (a read answered for the page already) marks a late button without a request.
    showSaved(el, !!savedKeys?.has(urlKey(urlOf(options()))));
    el.addEventListener("click", (ev) => {
      ev.preventDefault();
      open(options());
    });
  }

  /** Renders an accessible save button into `target`; returns the function that removes it. */
  function mount(target: Element | string, options: Options = {}): () => void {
    const el = typeof target === "string" ? document.querySelector(target) : target;
    if (!(el instanceof Element)) {
      const err = widgetError("mount_target_not_found", "No element for " + String(target));
      emit("error", err);
      throw err;
    }
    const button = document.createElement("button");
    button.type = "button";
    button.className = "wish-button";
    // The label follows the widget's locale; the product's `locale` is its market.
    button.textContent = str(options.label) || (isGerman(locale()) ? "Auf die Wunschliste" : "Add to wishlist");
    bind(button, () => options);
    el.appendChild(button);
    if (!savedKeys) void refreshSaved();
    return () => {
      buttons.delete(button);
      button.remove();
    };
  }

  function on(event: string, cb: Listener) {
    (listeners[event] ??= new Set()).add(cb);
    // A late "count" listener gets the count known so far, or the first fetch of it.
    if (event === "count") {
      if (savedKeys) cb(savedKeys.size);
      else if (initialised && !refreshing) scheduleRefresh();
    }
    return () => off(event, cb);
  }

  function off(event: string, cb: Listener) {
    listeners[event]?.delete(cb);
  }

  // A dialog already open hears of a change at once (a withdrawal stops its analytics).
  onConsent(() => {
    popup?.postMessage({ source: "wish", type: "consent", consent: granted() }, originOf(cfg.widgetUrl));
    rememberChange(granted().includes("preferences"));
  });

  const api = {
    init,
    open,
    mount,
    on,
    off,
    setConsent: (consent: unknown) => (setConsent(consent), api),
    createInstance: (options?: Options) => createInstance(options),
    get config() {
      return { ...cfg };
    },
  };

  let pending = false;
  const scheduleRefresh = () => {
    if (pending) return;
    pending = true;
    setTimeout(() => {
      pending = false;
      void refreshSaved();
    }, 50);
  };

  if (page) {
    eachElement("[data-wish]", (el) => {
      bind(el, () => buttonOptions(el));
      // Buttons appear after init (late markup): their saved state, read once for all of them.
      if (initialised && !savedKeys) scheduleRefresh();
    });
  }
  if (initial) init(initial);
  return api;
}

// The page's instance: configured from the script tag or <html>, binds [data-wish] buttons.
// A second copy of the script on the page (theme plus app embed) leaves the first in charge.
const global = window as unknown as { WishWidget?: ReturnType<typeof createInstance> };
if (!global.WishWidget) {
  watchConsent();
  const key = tagAttr("key") || tagAttr("public-key");
  const WishWidget = (global.WishWidget = createInstance(undefined, true));
  if (key) {
    WishWidget.init({
      key,
      environment: tagAttr("environment"),
      locale: tagAttr("locale"),
      allowedDomains: tagAttr("allowed-domains"),
    });
  }
}
