// POST /webhooks/inventory_levels/update: stock of saved variants, for the stock alerts (docs/alerts.md).
// Answered once recorded; the work runs after the answer (app/webhooks/queued.server.ts).
import type { ActionFunctionArgs } from "@remix-run/node";
import { queueWebhook } from "~/webhooks/receive.server";

export const action = ({ request }: ActionFunctionArgs) => queueWebhook(request, ["inventory_levels/update"]);
export const loader = action;
