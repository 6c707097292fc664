import { endpoint, route } from "~/api/endpoint.server";
import { prefetch } from "~/domains/widget/prefetch.server";

export const loader = endpoint({ POST: route("widget", ({ body }) => prefetch(body)) });
export const action = loader;
