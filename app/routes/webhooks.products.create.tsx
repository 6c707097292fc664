// POST /webhooks/products/create: the catalogue entry of the new product (docs/shopify.md "Shopify webhooks").
import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "~/webhooks/receive.server";
import { productChanged } from "~/domains/products/platform-products.server";

export const action = ({ request }: ActionFunctionArgs) => receiveWebhook(request, ["products/create"], productChanged);
export const loader = action;
