// The one Remix resource route of the public API: /api/v1 and everything
// under it, dispatched through the table in app/routes.ts.
import { dispatchApi } from "~/lib/api/router.server";

export const loader = dispatchApi;
export const action = loader;
