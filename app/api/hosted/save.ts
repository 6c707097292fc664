import { endpoint, route } from "~/api/endpoint.server";
import { clientAddress } from "~/lib/api/client-address";
import { saverAddress } from "~/domains/metering/actions.server";
import { saveProduct } from "~/domains/lists/save.server";
import { saveErrors, saveRequestBody, saveRequestCodes, saveResultSchema } from "~/domains/products/schemas";

const hosted = { kind: "hosted", partnerId: null, shopId: null, domain: null, widgetOrigin: null } as const;

export const loader = endpoint({
  POST: route(
    "user",
    { summary: "Save a product into one of the user's lists (SaveRequest)", body: saveRequestBody, codes: saveRequestCodes, response: saveResultSchema, errors: saveErrors },
    ({ user, body, context }) => saveProduct({ userId: user.userId, address: saverAddress(clientAddress(context)) }, body, hosted),
  ),
});
export const action = loader;
