// The load model of docs/capacity.md as numbers: the traffic the service
// meets at 150 % of a modelled Black Friday peak, per route class. The
// derivation is in docs/capacity.md; change both together.

/** Shopify's peak minute of Black Friday 2025: orders across every shop (docs/capacity.md cites it). */
export const SHOPIFY_PEAK_ORDERS_PER_MINUTE = 40_000;
/** The planning assumption: the shops with the app installed take this share of Shopify's orders. */
export const APP_SHARE_OF_ORDERS = 0.005;
/** Shopify rehearses at 150 % of last year's peak; so do we. */
export const HEADROOM = 1.5;
/** Storefront sessions per order (a 2.5 % conversion rate). */
export const SESSIONS_PER_ORDER = 40;
/** Pages a session views; three in four of them show hearts (collections, products, search). */
export const PAGES_PER_SESSION = 4;
export const HEART_PAGE_SHARE = 0.75;
/** Visitors the widget recognises at that shop (a wishlist session there); only they cost a heart-state request. */
export const RECOGNISED_SHARE = 0.1;
/** Saves per product-page view (half of the heart pages are product pages). */
export const SAVES_PER_PRODUCT_VIEW = 0.01;

const orders = (SHOPIFY_PEAK_ORDERS_PER_MINUTE / 60) * APP_SHARE_OF_ORDERS * HEADROOM;
const sessions = orders * SESSIONS_PER_ORDER;
const heartPages = sessions * PAGES_PER_SESSION * HEART_PAGE_SHARE;

export type RouteClass = "heart" | "init" | "save" | "share" | "view" | "og";

export const PEAK_MODEL = {
  /** Requests per second at 150 % of the modelled peak. */
  rates: {
    // At most one batched request per page for a recognised visitor (none for the others).
    heart: Math.round(heartPages * RECOGNISED_SHARE),
    // A widget token lasts 10 minutes: about one per recognised session, and one per first save of a guest.
    init: Math.round(sessions * RECOGNISED_SHARE + heartPages * 0.5 * SAVES_PER_PRODUCT_VIEW),
    save: Math.max(1, Math.round(heartPages * 0.5 * SAVES_PER_PRODUCT_VIEW)),
    // One list shared in a busy group chat: its page opened by the members, its preview fetched by every chat client.
    share: 30,
    // Each page opened in a browser reports its view (the page itself may come from a CDN).
    view: 30,
    og: 15,
  } satisfies Record<RouteClass, number>,
  /** The routes held to the p99 target of every step. */
  hot: ["heart", "init", "save", "share"] as RouteClass[],
  /** Orders per second at 150 %: the orders/create webhooks the shops send. */
  ordersPerSecond: Math.round(orders * 10) / 10,
  /** Shops in the fixture; the first is the viral one, with as many recognised shoppers as the rest together. */
  shops: 10,
  /** Recognised shoppers per quiet shop. */
  shoppersPerShop: 3,
  /** Public lists; the first one takes half of the share-page and preview traffic. */
  sharedLists: 4,
};
