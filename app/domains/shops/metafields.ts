// The shop metafields the app writes on install (app-owned namespace, so only
// this app can write them). The theme app extension reads them in Liquid as
// shop.metafields["$app:wishlist"].<key>.value.
export const SHOP_METAFIELD_NAMESPACE = "$app:wishlist";

export const SHOP_METAFIELD_KEYS = {
  /** The shop's live public key (pk_live_…) for the widget. */
  publicKey: "public_key",
  /** The shop's basket configuration id (bkt_…). */
  basketId: "basket_id",
  /** "true" while the branding badge is shown; "false" only on paid plans (SPEC 8.1). */
  badge: "badge",
  /** The app's APP_URL: where the extension's widget.js and basket-integration.js send their API calls and open the hosted dialog. */
  appUrl: "app_url",
  /** The anonymous-client key (SPEC 5 rule 1: public by design), sent by the extension's scripts with every API call. */
  anonKey: "anon_key",
} as const;
