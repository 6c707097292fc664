// The share page's view beacon `/{lang}/list/{token}/view` (app/pages/share/share-page.server.ts
// viewBeaconReply): `npm start` answers it before Remix (app/server/main.ts);
// this route serves `remix vite:dev` with the same handler.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { viewBeaconReply } from "~/pages/share/share-page.server";
import { apiRequestOfWeb, responseOfReply } from "~/lib/api/web-adapter.server";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  if (params.lang !== "de" && params.lang !== "en") return new Response(null, { status: 404, headers: { "cache-control": "no-store" } });
  return responseOfReply(await viewBeaconReply(apiRequestOfWeb(request), context, params.token));
}

export const action = ({ request, context, params }: ActionFunctionArgs) => loader({ request, context, params });
