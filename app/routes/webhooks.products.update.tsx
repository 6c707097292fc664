// POST /webhooks/products/update: title, image, price and availability of the catalogue entry (docs/shopify.md "Shopify webhooks").
import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "~/webhooks/receive.server";
import { productChanged } from "~/domains/products/platform-products.server";

export const action = ({ request }: ActionFunctionArgs) => receiveWebhook(request, ["products/update"], productChanged);
export const loader = action;
