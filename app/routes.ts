// The Remix route config beyond the file-based routes of app/routes/: one
// resource route for the whole public API (app/api/dispatch.ts), which
// dispatches through the API's own table (app/api/route-table.ts). Admin and
// share pages use file-based routes in app/routes/.
import type { DefineRoutesFunction } from "@remix-run/dev/dist/config/routes";

export function apiRoutes(defineRoutes: DefineRoutesFunction) {
  return defineRoutes((route) => {
    route("api/v1/*", "api/dispatch.ts", { id: "api" });
  });
}
