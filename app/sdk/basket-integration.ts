// basket-integration.js: opens the hosted basket drawer on a shop page and
// turns its "add to cart" into the shop's cart URL. Global `WishBasket`;
// handshake and messages per docs/storefront-protocol.md "Basket drawer".
import { APP_URL, call, eachElement, initWidget, isGerman, originOf, restoreShopper, stripSlash, widgetError, wishMessage } from "./common";
import { cartActionLines, cartPlan, shopifyCartItems } from "./cart";
import { granted, setConsent, watchConsent } from "./consent";

interface BasketOptions {
  apiKey?: string;
  configId?: string;
  cartUrl?: string;
  /** The shop is a Shopify storefront: add through its cart actions or AJAX cart, not by cart URL. */
  shopifyCart?: boolean;
  locale?: string;
  apiBase?: string;
  widgetUrl?: string;
  /** What the visitor allowed beyond the drawer itself (docs/privacy.md): `{analytics: true}`. */
  consent?: unknown;
}

interface BasketConfig {
  id: string;
  layout: string;
  primaryColor: string;
}

type Listener = (payload?: unknown) => void;

const listeners: Record<string, Set<Listener>> = {};
const emit = (event: string, payload?: unknown) => listeners[event]?.forEach((cb) => cb(payload));

let opts: Required<Omit<BasketOptions, "locale" | "shopifyCart" | "consent">> & { locale: string; shopifyCart: boolean };
let config: BasketConfig | null = null;
/** The configuration request of init, while it runs: an opener clicked meanwhile waits for it. */
let loading: Promise<unknown> | null = null;
let frame: HTMLIFrameElement | null = null;
let backdrop: HTMLDivElement | null = null;
let bound = false;

// Drawer slides in from the right; modal is centred; page covers the viewport.
const LAYOUT: Record<string, string> = {
  drawer: "top:0;right:0;width:min(420px,100vw);height:100%;",
  modal: "top:50%;left:50%;transform:translate(-50%,-50%);width:min(520px,94vw);height:min(720px,90vh);border-radius:12px;",
  page: "inset:0;width:100%;height:100%;",
};

function open(): void {
  if (!config) {
    if (loading) void loading.then(() => config && open(), () => undefined);
    else emit("error", widgetError("not_initialised", "Call WishBasket.init first"));
    return;
  }
  if (frame) return;
  const locale = opts.locale || document.documentElement.lang || "de-DE";
  backdrop = document.createElement("div");
  backdrop.style.cssText = "position:fixed;inset:0;background:rgba(0,0,0,.4);z-index:2147483646;";
  backdrop.addEventListener("click", close);
  frame = document.createElement("iframe");
  frame.title = isGerman(locale) ? "Wunschliste" : "Wishlist";
  frame.src = stripSlash(opts.widgetUrl) + "/dialog/basket?" + new URLSearchParams({ config: config.id, locale });
  frame.style.cssText = "position:fixed;border:0;background:#fff;z-index:2147483647;" + (LAYOUT[config.layout] || LAYOUT.drawer);
  document.body.append(backdrop, frame);
  frame.focus();
  emit("open");
}

function close(): void {
  if (!frame) return;
  frame.remove();
  backdrop?.remove();
  frame = backdrop = null;
  emit("close");
}

async function handshake(target: Window): Promise<void> {
  try {
    const init = await initWidget(opts.apiBase, opts.apiKey);
    // The drawer gets the partner-scoped shopper credential, never an account session.
    const accessToken = (await restoreShopper(opts.apiBase, init))?.token ?? null;
    // `consent`: the drawer counts its opening only when the visitor allowed analytics (docs/privacy.md).
    target.postMessage({ source: "wish", type: "basket-init", token: init.token, accessToken, consent: granted() }, originOf(opts.widgetUrl));
  } catch (err) {
    close();
    emit("error", err);
  }
}

async function addToCart(lines: unknown): Promise<void> {
  if (opts.shopifyCart) return addToShopifyCart(lines);
  const plan = cartPlan(opts.cartUrl, lines);
  // Shopify's /cart/add adds on GET: all but the last line in the background, in order.
  for (const url of plan.requests) await fetch(url, { credentials: "include" }).catch(() => undefined);
  if (plan.navigate) location.assign(plan.navigate);
}

// ---- Shopify's cart (docs/storefront-protocol.md, Basket drawer step 5).
interface CartAction {
  (payload: unknown): Promise<{ userErrors?: unknown[] } | undefined>;
  isDefault?: () => boolean;
}
interface ShopifyGlobal {
  actions?: { updateCart?: CartAction; openCart?: () => Promise<void> };
  routes?: { root?: string };
}

/**
 * The theme's `updateCart` action when the theme configured one (it refreshes
 * its own cart UI), else `POST /cart/add.js` and the cart page. Shopify's
 * default action would reload the page on themes it does not recognise.
 */
async function addToShopifyCart(lines: unknown): Promise<void> {
  const items = shopifyCartItems(lines);
  if (!items.length) return;
  const shopify = (window as unknown as { Shopify?: ShopifyGlobal }).Shopify;
  const root = shopify?.routes?.root || "/";
  const update = shopify?.actions?.updateCart;
  if (update && update.isDefault && !update.isDefault()) {
    try {
      const result = await update({ lines: cartActionLines(items) });
      if (!result?.userErrors?.length) {
        close();
        await shopify?.actions?.openCart?.();
        return;
      }
    } catch {
      /* the theme's action failed: the AJAX cart below */
    }
  }
  const res = await fetch(root + "cart/add.js", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ items }),
    credentials: "same-origin",
  }).catch(() => null);
  if (!res?.ok) emit("error", widgetError("cart_failed", "The cart refused the items (" + (res?.status ?? "network") + ")"));
  else location.assign(root + "cart");
}

function onMessage(ev: MessageEvent): void {
  const msg = frame && wishMessage(ev, originOf(opts.widgetUrl), frame.contentWindow);
  if (!msg) return;
  if (msg.type === "basket-ready") void handshake(ev.source as Window);
  else if (msg.type === "cart") void addToCart(msg.lines);
  else if (msg.type === "basket-close") close();
}

/** Reads the basket configuration (`GET /baskets/{id}`) and binds `[data-wish-basket]` openers. */
async function init(options: BasketOptions = {}): Promise<BasketConfig> {
  const fail = (code: string, message: string) => {
    const err = widgetError(code, message);
    emit("error", err);
    return Promise.reject(err);
  };
  if (!options.apiKey) return fail("key_required", "WishBasket.init needs apiKey");
  if (!options.configId) return fail("invalid_input", "WishBasket.init needs configId (bkt_…)");
  if (!options.cartUrl || !options.cartUrl.includes("{variant_id}")) {
    return fail("invalid_input", "cartUrl must contain {variant_id}");
  }
  if (options.consent !== undefined) setConsent(options.consent);
  opts = {
    apiKey: options.apiKey,
    configId: options.configId,
    cartUrl: options.cartUrl,
    shopifyCart: options.shopifyCart === true,
    locale: options.locale || "",
    apiBase: options.apiBase || APP_URL,
    widgetUrl: options.widgetUrl || APP_URL,
  };
  const request = call<BasketConfig>(opts.apiBase, "/baskets/" + encodeURIComponent(opts.configId));
  loading = request;
  // Openers work from now on: a shopper may click before the configuration arrived.
  bind();
  try {
    config = await request;
  } catch (err) {
    config = null;
    emit("error", err);
    throw err;
  } finally {
    if (loading === request) loading = null;
  }
  return config;
}

function bind(): void {
  if (!bound) {
    bound = true;
    addEventListener("message", onMessage);
    addEventListener("keydown", (ev) => ev.key === "Escape" && close());
    eachElement("[data-wish-basket]", (el) =>
      el.addEventListener("click", (ev) => {
        ev.preventDefault();
        open();
      }),
    );
  }
}

function on(event: string, cb: Listener) {
  (listeners[event] ??= new Set()).add(cb);
  return () => off(event, cb);
}

function off(event: string, cb: Listener) {
  listeners[event]?.delete(cb);
}

// A second copy of the script on the page leaves the first in charge.
const global = window as unknown as { WishBasket?: unknown };
if (!global.WishBasket) {
  watchConsent();
  global.WishBasket = { init, open, close, on, off, setConsent };
}
