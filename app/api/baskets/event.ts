import { endpoint, json, route } from "~/api/endpoint.server";
import { EVENT_TYPES, recordBasketEvent } from "~/domains/baskets/baskets.server";
import { basketParams } from "~/domains/baskets/schemas";
import { okSchema } from "~/domains/lists/schemas";

export const loader = endpoint({
  POST: route(
    "none",
    {
      summary: "Track a basket event (opens, items, checkouts); checkouts also go to the partner's webhook",
      description: `Body \`{type, meta?}\`: type one of ${EVENT_TYPES.join(", ")}; meta a JSON object of at most 2048 bytes.`,
      params: basketParams,
      status: 201,
      response: okSchema,
    },
    async ({ params, body }) => json(await recordBasketEvent(params.id, body), { status: 201 }),
  ),
});
export const action = loader;
