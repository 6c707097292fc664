import { endpoint, json, route } from "~/api/endpoint.server";
import { publicListDetail } from "~/domains/lists/lists.server";
import { parseLocale } from "~/domains/lists/serialize";
import { listViewer } from "~/domains/metering/list-viewer.server";

export const loader = endpoint({
  GET: route("none", async ({ request, context, params, url }) => {
    const viewer = await listViewer({ request, context });
    const body = await publicListDetail(params.token, parseLocale(url), viewer);
    // The first view hands out the viewer cookie (list-viewer.server.ts).
    return viewer?.setCookie ? json(body, { headers: { "Set-Cookie": viewer.setCookie } }) : body;
  }),
});
export const action = loader;
