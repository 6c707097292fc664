// POST /webhooks/orders/create: items bought through a signed list-item reference become purchased, and the order's
// wishlist revenue is recorded (docs/shopify.md "Shopify webhooks", docs/revenue.md).
import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "~/webhooks/receive.server";
import { orderReceived } from "~/domains/revenue/attribution.server";

export const action = ({ request }: ActionFunctionArgs) => receiveWebhook(request, ["orders/create"], orderReceived);
export const loader = action;
