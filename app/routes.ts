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

  // Anything else under /api/v1: JSON 404 not_found
  ["api/v1/*", "api/not-found.ts"],
];

export function apiRoutes(defineRoutes: DefineRoutesFunction) {
  return defineRoutes((route) => {
    for (const [path, file] of API_ROUTES) route(path, file, { id: `api:${path}` });
  });
}
