import { endpoint, route } from "~/api/endpoint.server";
import { deleteSavedProductForWidget } from "~/domains/widget/saved-products.server";

export const loader = endpoint({
  DELETE: route("widget+user", ({ user, widget, params }) => deleteSavedProductForWidget(user.userId, widget, params.itemId)),
});
export const action = loader;
