import { route } from "~/api/endpoint.server";
import { DISCONTINUED_AT, discontinuedEndpoint } from "./discontinued";

// Old clients show the balance; the studio's credits are gone.
export const loader = discontinuedEndpoint(route("none", () => ({ credits: 0, discontinued_at: DISCONTINUED_AT })));
export const action = loader;
