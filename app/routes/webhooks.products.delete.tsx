// POST /webhooks/products/delete: the catalogue entry is no longer available (docs/shopify.md "Shopify webhooks").
import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "~/webhooks/receive.server";
import { productDeleted } from "~/domains/products/platform-products.server";

export const action = ({ request }: ActionFunctionArgs) => receiveWebhook(request, ["products/delete"], productDeleted);
export const loader = action;
