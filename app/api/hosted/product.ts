import { endpoint, route } from "~/api/endpoint.server";
import { deleteManualProduct } from "~/domains/lists/items.server";

export const loader = endpoint({
  DELETE: route("user", ({ user, params }) => deleteManualProduct(params.productId, user.userId)),
});
export const action = loader;
