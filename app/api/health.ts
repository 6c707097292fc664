import { endpoint, route } from "~/api/endpoint.server";
import { healthCheck } from "~/domains/system/system.server";

export const loader = endpoint({ GET: route("none", () => healthCheck()) });
export const action = loader;
