import { route } from "~/api/endpoint.server";
import { DISCONTINUED_AT, discontinuedEndpoint } from "./discontinued";

export const loader = discontinuedEndpoint(route("none", () => ({ status: "discontinued", discontinued_at: DISCONTINUED_AT })));
export const action = loader;
