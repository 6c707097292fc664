import { endpoint, route } from "~/api/endpoint.server";
import { serviceStatus } from "~/domains/system/system.server";

export const loader = endpoint({ GET: route("none", () => serviceStatus()) });
export const action = loader;
