// POST /webhooks/refunds/create: a refund of an order attributed to the wishlist takes the refunded lines' amounts
// off its revenue, once per refund (docs/shopify.md "Shopify webhooks", docs/revenue.md "Refunds").
// Answered once recorded; the work runs after the answer (app/webhooks/queued.server.ts).
import type { ActionFunctionArgs } from "@remix-run/node";
import { queueWebhook } from "~/webhooks/receive.server";

export const action = ({ request }: ActionFunctionArgs) => queueWebhook(request, ["refunds/create"]);
export const loader = action;
