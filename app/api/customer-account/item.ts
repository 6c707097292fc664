import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { deletedIdSchema } from "~/domains/lists/schemas";
import { removeCustomerItem } from "~/domains/customer-accounts/wishlist.server";

export const loader = endpoint({
  DELETE: route(
    "customer",
    {
      summary: "Remove one of the signed-in customer's saved products of this shop",
      description: "Only the customer's own item saved through this shop; any other id is 404.",
      tag: "customer-account",
      params: z.object({ itemId: z.string().describe("The item's integer item_id") }),
      response: deletedIdSchema,
      errors: { missing_item_id: 400 },
    },
    ({ customer, params }) => removeCustomerItem(customer, params.itemId),
  ),
});
export const action = loader;
