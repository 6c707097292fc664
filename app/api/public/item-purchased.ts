import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { setPurchasedPublic } from "~/domains/lists/items.server";
import { itemParams } from "~/domains/lists/schemas";

export const loader = endpoint({
  PUT: route(
    "none",
    {
      summary: "Mark an item of a public list as purchased (or not), for gift-givers with the link",
      description: "Body `{purchased: boolean}`. The flag shows on every items response, the owner's too.",
      params: itemParams,
      response: z.object({ ok: z.literal(true), purchased: z.boolean() }),
      errors: { missing_token: 400, missing_item_id: 400, update_failed: 500 },
    },
    ({ params, body }) => setPurchasedPublic(params.token, params.itemId, body),
  ),
});
export const action = loader;
