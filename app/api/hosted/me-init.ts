import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { initUser } from "~/domains/lists/lists.server";
import { hostedListSchema, localeQuery } from "~/domains/lists/schemas";
import { parseLocale } from "~/api/locale.server";

export const loader = endpoint({
  POST: route(
    "user",
    {
      summary: "Ensure the user has a default list, and return it",
      query: localeQuery,
      response: z.object({
        ok: z.literal(true),
        user: z.object({ id: z.string(), is_anonymous: z.boolean() }),
        list: hostedListSchema,
      }),
    },
    ({ user, url }) => initUser(user, parseLocale(url)),
  ),
});
export const action = loader;
