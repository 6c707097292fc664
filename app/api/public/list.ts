import { z } from "zod";
import { endpoint, json, REPLICA_READS, route } from "~/api/endpoint.server";
import { publicListDetail } from "~/domains/lists/lists.server";
import { hostedListDetailSchema, localeQuery, tokenParams } from "~/domains/lists/schemas";
import { parseLocale } from "~/api/locale.server";
import { listViewer } from "~/domains/metering/list-viewer.server";
import { clientAddress } from "~/lib/api/client-address";
import { setCookie, VIEWER_COOKIE, viewerSignals } from "~/http/cookies.server";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "A public list by share token (counts a list view); private and unknown lists are 404",
      description: "Only while the list has `share_public: true`; otherwise 404 `not_found`, exactly as for a list that does not exist. Shows nothing about the owner beyond name, avatar and premium flag. May set the `wl_viewer` cookie that identifies the viewer.",
      params: tokenParams,
      query: localeQuery,
      response: z.object({ list: hostedListDetailSchema }),
      errors: { missing_token: 400 },
    },
    async ({ request, context, params, url }) => {
      const viewer = await listViewer(viewerSignals(request, clientAddress(context)));
      const body = await publicListDetail(params.token, parseLocale(url), viewer);
      // The first view hands out the viewer cookie (list-viewer.server.ts).
      return viewer?.newViewerId ? json(body, { headers: { "Set-Cookie": setCookie(VIEWER_COOKIE, viewer.newViewerId) } }) : body;
    },
    REPLICA_READS,
  ),
});
export const action = loader;
