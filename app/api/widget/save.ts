import { endpoint, route, SHOPPER } from "~/api/endpoint.server";
import { clientAddress } from "~/lib/api/client-address";
import { saverAddress } from "~/domains/metering/actions.server";
import { saveProduct } from "~/domains/lists/save.server";
import { saveErrors, saveRequestBody, saveRequestCodes, saveResultSchema } from "~/domains/products/schemas";
import { originHost } from "~/domains/widget/origin";

export const loader = endpoint({
  POST: route(
    "widget+user",
    {
      summary: "Save a product from the partner's page into one of the user's lists (SaveRequest)",
      description: "As `POST /hosted/save`, recording the source partner, shop and domain. On the Free plan at 100% of the month's actions every save through the partner is 402 `usage_limit_reached`, repeats included.",
      body: saveRequestBody,
      codes: saveRequestCodes,
      response: saveResultSchema,
      errors: saveErrors,
    },
    ({ user, widget, body, context }) =>
      saveProduct({ userId: user.userId, address: saverAddress(clientAddress(context)), partnerScope: user.partnerScope }, body, {
        kind: "widget",
        partnerId: widget.partnerId,
        shopId: widget.shopId,
        domain: originHost(widget.origin),
        widgetOrigin: widget.origin,
      }),
    SHOPPER,
  ),
});
export const action = loader;
