// The one Remix resource route of the public API: /api/v1 and everything
// under it, dispatched through the table in app/api/route-table.ts. `npm start`
// answers /api/v1 without Remix (app/api/node-entry.server.ts); this route serves
// `remix vite:dev`.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { dispatchApi } from "~/api/router.server";
import { apiRequestOfWeb, responseOfReply } from "~/lib/api/web-adapter.server";

export async function loader({ request, context }: LoaderFunctionArgs): Promise<Response> {
  return responseOfReply(await dispatchApi(apiRequestOfWeb(request), context));
}
export const action = loader;
