// POST /webhooks/orders/create: items bought through a signed list-item reference become purchased (docs/shopify.md "Shopify webhooks").
import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "~/webhooks/receive.server";
import { orderCreated } from "~/domains/lists/order-confirmations.server";

export const action = ({ request }: ActionFunctionArgs) => receiveWebhook(request, ["orders/create"], orderCreated);
export const loader = action;
