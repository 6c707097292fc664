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
      description: "The default list is created once, even under concurrent calls; it is named \"Meine Wunschliste\" for `lang=de`.",
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
