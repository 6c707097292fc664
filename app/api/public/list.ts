import { endpoint, route } from "~/lib/api/endpoint.server";
import { publicListDetail } from "~/domains/lists/lists.server";
import { parseLocale } from "~/domains/lists/serialize";
import { viewerKey } from "~/domains/metering/actions.server";

export const loader = endpoint({
  GET: route("none", ({ request, params, url }) => publicListDetail(params.token, parseLocale(url), viewerKey(request, null))),
});
export const action = loader;
