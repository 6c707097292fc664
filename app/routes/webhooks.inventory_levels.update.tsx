// POST /webhooks/inventory_levels/update: stock of saved variants, for the stock alerts (docs/alerts.md).
import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "~/webhooks/receive.server";
import { inventoryLevelUpdated } from "~/domains/products/platform-products.server";

export const action = ({ request }: ActionFunctionArgs) => receiveWebhook(request, ["inventory_levels/update"], inventoryLevelUpdated);
export const loader = action;
