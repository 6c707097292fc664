import { endpoint, route } from "~/api/endpoint.server";
import { signUp } from "~/domains/identity/identity.server";
import { sessionSchema } from "~/domains/identity/schemas";

export const loader = endpoint({
  POST: route(
    "apikey",
    {
      summary: "Sign up with e-mail and password, or with no body as an anonymous user; returns a session",
      description:
        "An empty body, or one with neither `email` nor `password`, creates an anonymous user. GoTrue's `data: {display_name}` sets the " +
        "name share pages and link previews show (trimmed, at most 60 characters, no control characters); other `data` is ignored.",
      response: sessionSchema,
      errors: { invalid_email: 400, invalid_display_name: 400, weak_password: 422, email_exists: 422 },
    },
    ({ body }) => signUp(body),
  ),
});
export const action = loader;
