import { endpoint, json, route } from "~/api/endpoint.server";
import { recordBasketEvent } from "~/domains/baskets/baskets.server";

export const loader = endpoint({
  POST: route("none", async ({ params, body }) => json(await recordBasketEvent(params.id, body), { status: 201 })),
});
export const action = loader;
