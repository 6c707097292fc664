import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { setPurchasedAsMember } from "~/domains/lists/items.server";
import { itemAccessErrors, itemParams } from "~/domains/lists/schemas";

export const loader = endpoint({
  PUT: route(
    "user",
    {
      summary: "Set an item's purchased flag (owner or editor)",
      description: "Body `{purchased: boolean}`.",
      params: itemParams,
      response: z.object({ ok: z.literal(true), purchased: z.boolean() }),
      errors: { ...itemAccessErrors, update_failed: 500 },
    },
    ({ user, params, body }) => setPurchasedAsMember(params.token, params.itemId, user.userId, body),
  ),
});
export const action = loader;
