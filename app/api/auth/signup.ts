import { endpoint, route } from "~/api/endpoint.server";
import { signUp } from "~/domains/identity/identity.server";

export const loader = endpoint({ POST: route("apikey", ({ body }) => signUp(body)) });
export const action = loader;
