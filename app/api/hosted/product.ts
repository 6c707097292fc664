import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { deleteManualProduct } from "~/domains/lists/items.server";
import { deletedIdSchema } from "~/domains/lists/schemas";

export const loader = endpoint({
  DELETE: route(
    "user",
    {
      summary: "Delete a manual product the user created, with its items",
      params: z.object({ productId: z.string().describe("The product's integer id") }),
      response: deletedIdSchema,
      errors: { missing_id: 400 },
    },
    ({ user, params }) => deleteManualProduct(params.productId, user.userId),
  ),
});
export const action = loader;
