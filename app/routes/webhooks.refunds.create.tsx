// POST /webhooks/refunds/create: a refund of an order attributed to the wishlist takes the refunded lines' amounts
// off its revenue, once per refund (docs/shopify.md "Shopify webhooks", docs/revenue.md "Refunds").
import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "~/webhooks/receive.server";
import { refundReceived } from "~/domains/revenue/refunds.server";

export const action = ({ request }: ActionFunctionArgs) => receiveWebhook(request, ["refunds/create"], refundReceived);
export const loader = action;
