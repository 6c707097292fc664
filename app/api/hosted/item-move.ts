import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { moveItem } from "~/domains/lists/items.server";
import { hostedProductSchema, itemAccessErrors, itemParams, localeQuery } from "~/domains/lists/schemas";
import { parseLocale } from "~/api/locale.server";

export const loader = endpoint({
  POST: route(
    "user",
    {
      summary: "Move or copy an item to another list (owner of the source, owner or editor of the target)",
      description: "Body `{target: <share token>}` or `{targetWishlistId}`, and `copy: true` to copy instead of move. When the target list already holds the product, that item is kept.",
      params: itemParams,
      query: localeQuery,
      response: z.object({ ok: z.literal(true), copied: z.boolean(), item: hostedProductSchema }),
      errors: {
        ...itemAccessErrors,
        move_requires_owner: 403,
        missing_target: 400,
        same_list: 400,
        insert_failed: 500,
        source_delete_failed: 500,
      },
    },
    ({ user, params, body, url }) => moveItem(params.token, params.itemId, user.userId, body, parseLocale(url)),
  ),
});
export const action = loader;
