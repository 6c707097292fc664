// The public API surface, one line per path (GUIDE section 1: {base_url} is
// APP_URL/api/v1): path pattern → route module. Remix sees one resource route
// for all of it (app/api/dispatch.ts), which dispatches through this table
// (app/api/router.server.ts). Static segments win over `:params`, which
// win over `*`.

export const API_ROUTES: Array<[path: string, file: string]> = [
  ["api/v1", "api/status.ts"],
  ["api/v1/health", "api/health.ts"],
  // The API's own description (SPEC 9), generated from this table
  ["api/v1/openapi.json", "api/docs/openapi.ts"],
  ["api/v1/endpoints", "api/docs/endpoints.ts"],

  // Identity provider (GoTrue-shaped, GUIDE section 5)
  ["api/v1/auth/signup", "api/auth/signup.ts"],
  ["api/v1/auth/token", "api/auth/token.ts"],
  ["api/v1/auth/user", "api/auth/user.ts"],
  ["api/v1/auth/logout", "api/auth/logout.ts"],
  ["api/v1/auth/recover", "api/auth/recover.ts"],
  ["api/v1/auth/verify", "api/auth/verify.ts"],
  ["api/v1/auth/.well-known/jwks.json", "api/auth/jwks.ts"],

  // Shopper side: hosted lists and items (SPEC 4.2)
  // (lists-block)
  ["api/v1/hosted/lists", "api/hosted/lists.ts"],
  ["api/v1/hosted/me/lists", "api/hosted/me-lists.ts"],
  ["api/v1/hosted/me/init", "api/hosted/me-init.ts"],
  ["api/v1/hosted/lists/:token", "api/hosted/list.ts"],
  ["api/v1/hosted/lists/:token/items", "api/hosted/list-items.ts"],
  ["api/v1/hosted/lists/:token/items/manual", "api/hosted/item-manual.ts"],
  ["api/v1/hosted/lists/:token/items/:itemId", "api/hosted/item.ts"],
  ["api/v1/hosted/lists/:token/items/:itemId/purchased", "api/hosted/item-purchased.ts"],
  ["api/v1/hosted/lists/:token/items/:itemId/move", "api/hosted/item-move.ts"],
  ["api/v1/hosted/lists/:token/items/:itemId/rescrape", "api/hosted/item-rescrape.ts"],
  ["api/v1/hosted/save", "api/hosted/save.ts"],
  ["api/v1/hosted/saved-products", "api/hosted/saved-products.ts"],
  ["api/v1/hosted/products/:productId", "api/hosted/product.ts"],
  ["api/v1/hosted/occasions", "api/hosted/occasions.ts"],

  // Shopper side: collaborators, follows, account migration (SPEC 4.2, 4.3)
  // (people-block)
  ["api/v1/hosted/lists/:token/collaborators", "api/hosted/collaborators.ts"],
  ["api/v1/hosted/lists/:token/collaborators/:userId", "api/hosted/collaborator.ts"],
  ["api/v1/hosted/migrate-anonymous-to-provider", "api/hosted/migrate-anonymous.ts"],
  ["api/v1/hosted/link-shop-customer", "api/hosted/link-shop-customer.ts"],
  ["api/v1/hosted/link-shop-customer/preview", "api/hosted/link-shop-customer-preview.ts"],
  ["api/v1/hosted/me/connections", "api/hosted/me-connections.ts"],
  ["api/v1/hosted/me/connections/:partnerId", "api/hosted/me-connection.ts"],
  ["api/v1/hosted/create-anonymous-user", "api/hosted/internal-create-anonymous-user.ts"],
  ["api/v1/hosted/login-legacy-temp-user", "api/hosted/internal-login-legacy-temp-user.ts"],
  ["api/v1/hosted/migrate-legacy-maui-user", "api/hosted/internal-migrate-legacy-maui-user.ts"],

  // Public share routes (SPEC 4.3)
  // (public-block)
  ["api/v1/hosted/public/lists/:token/link", "api/hosted/public-link.ts"],
  ["api/v1/hosted/public/lists/:token", "api/public/list.ts"],
  ["api/v1/hosted/public/lists/:token/items", "api/public/list-items.ts"],
  ["api/v1/hosted/public/lists/:token/items/:itemId/purchased", "api/public/item-purchased.ts"],

  // Link previews (SPEC 4.4)
  // (og-block)
  ["api/v1/og/list/:token", "api/og/list.ts"],
  ["api/v1/og/image/:file", "api/og/image.ts"],

  ["api/v1/hosted/scrape-preview", "api/hosted/scrape-preview.ts"],
  // Widget (SPEC 4.1)
  // (widget-block)
  ["api/v1/widget/init", "api/widget/init.ts"],
  ["api/v1/widget/save", "api/widget/save.ts"],
  ["api/v1/widget/saved-products", "api/widget/saved-products.ts"],
  ["api/v1/widget/saved-products/:itemId", "api/widget/saved-product.ts"],
  ["api/v1/widget/lists", "api/widget/lists.ts"],
  ["api/v1/widget/prefetch", "api/widget/prefetch.ts"],

  // Widget sign-in bridge and session store (SPEC 4.1)
  // (bridge-block)
  ["api/v1/widget/oauth-state", "api/widget/oauth-state.ts"],
  ["api/v1/widget/oauth-complete", "api/widget/oauth-complete.ts"],
  ["api/v1/widget/oauth-poll", "api/widget/oauth-poll.ts"],
  ["api/v1/widget/session-store", "api/widget/session-store.ts"],
  ["api/v1/widget/session-restore", "api/widget/session-restore.ts"],

  // Shopify customer account extension "Wishlist" (docs/shopify.md): the customer's session token
  // (customer-block)
  ["api/v1/customer-account/items", "api/customer-account/items.ts"],
  ["api/v1/customer-account/items/:itemId", "api/customer-account/item.ts"],
  ["api/v1/customer-account/share", "api/customer-account/share.ts"],

  // Partner tooling, keys and usage (SPEC 4.6, 5)
  // (partner-block)
  ["api/v1/partner/keys", "api/partner/keys.ts"],
  ["api/v1/partner/keys/:id", "api/partner/key.ts"],
  ["api/v1/partner/keys/:id/rotate", "api/partner/key-rotate.ts"],
  ["api/v1/partner/keys/:id/revoke", "api/partner/key-revoke.ts"],
  ["api/v1/partner/keys/:id/allowed-domains", "api/partner/key-allowed-domains.ts"],
  ["api/v1/partner/access-tokens", "api/partner/access-tokens.ts"],
  ["api/v1/partner/access-tokens/:id", "api/partner/access-token.ts"],
  ["api/v1/api-usage/:apiKeyId", "api/partner/api-usage.ts"],
  ["api/v1/me/usage", "api/partner/me-usage.ts"],

  // Baskets (SPEC 4.5) and the discontinued ad studio (SPEC 7.7)
  // (basket-block)
  ["api/v1/baskets/:id", "api/baskets/basket.ts"],
  ["api/v1/baskets/:id/event", "api/baskets/event.ts"],
  ["api/v1/partner/baskets", "api/baskets/partner-baskets.ts"],
  ["api/v1/partner/baskets/:id", "api/baskets/partner-basket.ts"],
  ["api/v1/partner/baskets/:id/test-webhook", "api/baskets/partner-test-webhook.ts"],
  ["api/v1/ad-studio/health", "api/ad-studio/health.ts"],
  ["api/v1/ad-studio/credits", "api/ad-studio/credits.ts"],
  ["api/v1/ad-studio/*", "api/ad-studio/all.ts"],

  // Creator media (SPEC 7.5): uploads, finalisation, list, update, delete
  // (media-block)
  ["api/v1/media", "api/media/list.ts"],
  ["api/v1/media/uploads", "api/media/uploads.ts"],
  ["api/v1/media/uploads/:uploadId", "api/media/upload.ts"],
  ["api/v1/media/uploads/:uploadId/chunks/:index", "api/media/upload-chunk.ts"],
  ["api/v1/media/uploads/:uploadId/finalize", "api/media/upload-finalize.ts"],
  ["api/v1/media/:id", "api/media/item.ts"],

  // Consumer account, friends, notifications, feedback (SPEC 7.6)
  // (consumer-block)
  ["api/v1/account", "api/consumer/account.ts"],
  ["api/v1/friends", "api/consumer/friends.ts"],
  ["api/v1/friends/requests", "api/consumer/friend-requests.ts"],
  ["api/v1/friends/requests/:id", "api/consumer/friend-request.ts"],
  ["api/v1/friends/requests/:id/accept", "api/consumer/friend-request-accept.ts"],
  ["api/v1/friends/requests/:id/decline", "api/consumer/friend-request-decline.ts"],
  ["api/v1/friends/invites", "api/consumer/friend-invites.ts"],
  ["api/v1/friends/invites/:code/accept", "api/consumer/friend-invite-accept.ts"],
  ["api/v1/friends/:userId", "api/consumer/friend.ts"],
  ["api/v1/notifications", "api/consumer/notifications.ts"],
  ["api/v1/notifications/read-all", "api/consumer/notifications-read-all.ts"],
  ["api/v1/notifications/:id", "api/consumer/notification.ts"],
  ["api/v1/notifications/:id/read", "api/consumer/notification-read.ts"],
  ["api/v1/feedback/ideas", "api/consumer/feedback-ideas.ts"],
  ["api/v1/feedback/ratings", "api/consumer/feedback-ratings.ts"],

  // List import, image proxy, analytics, partner bootstrap and roles (SPEC 7.3-7.6)
  ["api/v1/imports", "api/imports/imports.ts"],
  ["api/v1/imports/sync", "api/imports/sync.ts"],
  ["api/v1/imports/:id", "api/imports/import.ts"],
  ["api/v1/imports/:id/sync", "api/imports/import-sync.ts"],
  ["api/v1/images/proxy", "api/images/proxy.ts"],
  ["api/v1/analytics/track", "api/analytics/track.ts"],
  ["api/v1/partner/analytics", "api/analytics/partner-analytics.ts"],
  ["api/v1/partner/bootstrap", "api/roles/bootstrap.ts"],
  ["api/v1/partner/me", "api/roles/me.ts"],
  ["api/v1/partners/:partnerId/members", "api/roles/members.ts"],
  ["api/v1/partners/:partnerId/members/:userId", "api/roles/member.ts"],

  // Shops: storefront pages, curated lists, follows (SPEC 4.8), and the merchant's control of them
  // (shops-block)
  ["api/v1/shops/@me/following", "api/shops/me-following.ts"],
  ["api/v1/shops/@me/analytics/followers", "api/shops/me-follower-analytics.ts"],
  ["api/v1/shops/by-domain/:domain", "api/shops/by-domain.ts"],
  ["api/v1/shops/:handle", "api/shops/shop.ts"],
  ["api/v1/shops/:handle/lists", "api/shops/lists.ts"],
  ["api/v1/shops/:handle/featured-lists", "api/shops/featured-lists.ts"],
  ["api/v1/shops/:handle/lists/:slug/products", "api/shops/list-products.ts"],
  ["api/v1/shops/:handle/categories", "api/shops/categories.ts"],
  ["api/v1/shops/:handle/products", "api/shops/products.ts"],
  ["api/v1/shops/:handle/search", "api/shops/search.ts"],
  ["api/v1/shops/:handle/trending", "api/shops/trending.ts"],
  ["api/v1/shops/:handle/analytics/followers", "api/shops/follower-analytics.ts"],
  ["api/v1/shops/:handle/follow", "api/shops/follow.ts"],
  ["api/v1/partner/shops", "api/shops/partner-shops.ts"],
  ["api/v1/partner/shops/:id", "api/shops/partner-shop.ts"],
  ["api/v1/partner/shops/:id/lists", "api/shops/partner-shop-lists.ts"],
  ["api/v1/partner/shops/:id/lists/:slug", "api/shops/partner-shop-list.ts"],

  // Discover, stores and the retailer catalogue (SPEC 4.8)
  // (discover-block)
  ["api/v1/discover/trending", "api/discover/trending.ts"],
  ["api/v1/discover/search", "api/discover/search.ts"],
  ["api/v1/discover/shops", "api/discover/shops.ts"],
  ["api/v1/discover/partners", "api/discover/partners.ts"],
  ["api/v1/discover/curated-lists", "api/discover/curated-lists.ts"],
  ["api/v1/discover/seasonal", "api/discover/seasonal.ts"],
  ["api/v1/discover/occasions", "api/discover/occasions.ts"],
  ["api/v1/discover/products/:productId", "api/discover/product.ts"],
  ["api/v1/discover/products/:productId/price-history", "api/discover/price-history.ts"],
  ["api/v1/stores", "api/stores/stores.ts"],
  ["api/v1/stores/categories", "api/stores/categories.ts"],
  ["api/v1/stores/:domain", "api/stores/store.ts"],
  ["api/v1/stores/:domain/products", "api/stores/store-products.ts"],
  ["api/v1/products/search", "api/products/search.ts"],
  ["api/v1/products/:productId", "api/products/product.ts"],

  // Sitemaps (SPEC 4.8); the same documents answer at the site root (app/routes/sitemap-*)
  ["api/v1/sitemap-pages.xml", "api/sitemaps/pages.ts"],
  ["api/v1/sitemap-shops.xml", "api/sitemaps/shops.ts"],
  ["api/v1/sitemap-shops.json", "api/sitemaps/shops-json.ts"],

  // Anything else under /api/v1: JSON 404 not_found
  ["api/v1/*", "api/not-found.ts"],
];
