import { z } from "zod";
import { endpoint, optionalWidget, route } from "~/api/endpoint.server";
import { createList } from "~/domains/lists/lists.server";
import { hostedListSchema } from "~/domains/lists/schemas";
import { objectBody } from "~/lib/api/schemas";

/** `POST /hosted/me/lists` (SPEC 4.2): 400 `missing_name` when name is absent or blank. */
export const createListBody = objectBody(
  z.object({
    name: z.string().max(200).trim().min(1),
    description: z.string().max(2000).nullish(),
  }),
);

export const loader = endpoint({
  POST: route(
    "user",
    {
      summary: "Create a list owned by the user",
      description: "With the `X-Widget-Token` of a shop's save dialog, the list is made through that shop: the shop's page (its shopper credential) may save into it, and its store may publish it while it holds that shop's items alone. An invalid widget token is 403 `forbidden`.",
      body: createListBody,
      codes: { missing: { name: "missing_name" } },
      response: z.object({ ok: z.literal(true), list: hostedListSchema, token: z.string().describe("The new list's share token") }),
      errors: { forbidden: 403 },
    },
    async ({ user, body, request }) => createList(user.userId, body, (await optionalWidget(request))?.partnerId ?? null),
  ),
});
export const action = loader;
