// The Shopify app's keys of the run's second shared server (global-setup.ts starts it beside the
// plain one). A file that needs only these keys talks to it (`sharedShopifyApi()` in api.ts) instead
// of starting a server of its own, and signs its app proxy requests, session tokens and webhooks
// with this secret. Free of vitest imports: the global setup reads it.
export const SHARED_SHOPIFY = { apiKey: "test-client-id", secret: "shpss_shared_server_secret" };

/** The shared Shopify server's environment over the standard test server's. */
export const sharedShopifyEnv = { SHOPIFY_API_KEY: SHARED_SHOPIFY.apiKey, SHOPIFY_API_SECRET: SHARED_SHOPIFY.secret };
