// The public API surface, one line per path (GUIDE section 1: {base_url} is
// APP_URL/api/v1). Admin and share pages use file-based routes in app/routes/.
import type { DefineRoutesFunction } from "@remix-run/dev/dist/config/routes";

export const API_ROUTES: Array<[path: string, file: string]> = [
  ["api/v1", "api/status.ts"],
  ["api/v1/health", "api/health.ts"],

  // Identity provider (GoTrue-shaped, GUIDE section 5)
  ["api/v1/auth/signup", "api/auth/signup.ts"],
  ["api/v1/auth/token", "api/auth/token.ts"],
  ["api/v1/auth/user", "api/auth/user.ts"],
  ["api/v1/auth/logout", "api/auth/logout.ts"],
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
  ["api/v1/hosted/create-anonymous-user", "api/hosted/internal-create-anonymous-user.ts"],
  ["api/v1/hosted/login-legacy-temp-user", "api/hosted/internal-login-legacy-temp-user.ts"],
  ["api/v1/hosted/migrate-legacy-maui-user", "api/hosted/internal-migrate-legacy-maui-user.ts"],

  // Public share routes (SPEC 4.3)
  // (public-block)
  ["api/v1/hosted/public/lists/:token/link", "api/hosted/public-link.ts"],
  ["api/v1/hosted/public/lists/:token", "api/public/list.ts"],
  ["api/v1/hosted/public/lists/:token/items", "api/public/list-items.ts"],
  ["api/v1/hosted/public/lists/:token/items/:itemId/purchased", "api/public/item-purchased.ts"],

  ["api/v1/hosted/scrape-preview", "api/hosted/scrape-preview.ts"],
  // Widget (SPEC 4.1)
  // (widget-block)

  // Widget sign-in bridge and session store (SPEC 4.1)
  // (bridge-block)

  // Partner tooling, keys and usage (SPEC 4.6, 5)
  // (partner-block)

  // Baskets (SPEC 4.5) and the discontinued ad studio (SPEC 7.7)
  // (basket-block)

  // Anything else under /api/v1: JSON 404 not_found
  ["api/v1/*", "api/not-found.ts"],
];

export function apiRoutes(defineRoutes: DefineRoutesFunction) {
  return defineRoutes((route) => {
    for (const [path, file] of API_ROUTES) route(path, file, { id: `api:${path}` });
  });
}
