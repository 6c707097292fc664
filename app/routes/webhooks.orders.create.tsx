// POST /webhooks/orders/create: items bought through a signed list-item reference become purchased, and the order's
// wishlist revenue is recorded (docs/shopify.md "Shopify webhooks", docs/revenue.md).
// Answered once recorded; the work runs after the answer (app/webhooks/queued.server.ts).
import type { ActionFunctionArgs } from "@remix-run/node";
import { queueWebhook } from "~/webhooks/receive.server";

export const action = ({ request }: ActionFunctionArgs) => queueWebhook(request, ["orders/create"]);
export const loader = action;
