// The share page `/{lang}/list/{token}` (SPEC 4.3, docs/storefront.md "Share pages and
// link previews") as a Remix resource route: `npm start` answers
// /{de,en}/list/{token} before Remix (app/server/main.ts); this route serves
// the rest (other languages: the 404 page; PUT and the like: the form post)
// and everything under `remix vite:dev`, with the same handler.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { sharePageReply } from "~/pages/share/share-page.server";
import { apiRequestOfWeb, responseOfReply } from "~/lib/api/web-adapter.server";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return responseOfReply(await sharePageReply(apiRequestOfWeb(request), context, { lang: params.lang, token: params.token }));
}

export const action = ({ request, context, params }: ActionFunctionArgs) => loader({ request, context, params });
