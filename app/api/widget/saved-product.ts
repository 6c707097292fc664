import { z } from "zod";
import { endpoint, route, SHOPPER } from "~/api/endpoint.server";
import { deleteSavedProductForWidget } from "~/domains/lists/widget-saves.server";
import { deletedIdSchema } from "~/domains/lists/schemas";

export const loader = endpoint({
  DELETE: route(
    "widget+user",
    {
      summary: "Remove an item the user saved from this partner's shop",
      description: "Only an item saved through this partner (or from this domain); any other is 404.",
      params: z.object({ itemId: z.string().describe("The item's integer item_id") }),
      response: deletedIdSchema,
      errors: { missing_item_id: 400 },
    },
    ({ user, widget, params }) => deleteSavedProductForWidget(user.userId, widget, params.itemId),
    SHOPPER,
  ),
});
export const action = loader;
