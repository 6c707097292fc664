// POST /webhooks/products/create: the catalogue entry of the new product (docs/shopify.md "Shopify webhooks").
// Answered once recorded; the work runs after the answer (app/webhooks/queued.server.ts).
import type { ActionFunctionArgs } from "@remix-run/node";
import { queueWebhook } from "~/webhooks/receive.server";

export const action = ({ request }: ActionFunctionArgs) => queueWebhook(request, ["products/create"]);
export const loader = action;
