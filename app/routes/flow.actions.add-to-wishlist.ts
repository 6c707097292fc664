// POST /flow/actions/add-to-wishlist: the runtime URL of the Flow action
// "Add product to customer's wishlist" (extensions/flow-add-to-wishlist),
// verified by authenticate.flow (docs/shopify.md "Shopify Flow").
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { ADD_TO_WISHLIST_HANDLE, addProductToCustomerWishlist } from "~/domains/flow/add-to-wishlist.server";
import { badRequest } from "~/lib/api/errors";
import { receiveFlowAction } from "~/webhooks/flow.server";

const actionRequest = z.object({
  handle: z.literal(ADD_TO_WISHLIST_HANDLE).optional(),
  properties: z.record(z.string(), z.unknown()),
});

export const action = ({ request }: ActionFunctionArgs) =>
  receiveFlowAction(request, ({ shopDomain, payload, graphql }) => {
    const parsed = actionRequest.safeParse(payload);
    if (!parsed.success) throw badRequest("invalid_payload", `An action request of ${ADD_TO_WISHLIST_HANDLE} with properties`);
    return addProductToCustomerWishlist({ shopDomain, properties: parsed.data.properties, graphql });
  });
export const loader = action;
