// POST /webhooks/orders/create: items bought through a signed list-item reference become purchased (README "Shopify webhooks").
import { platformWebhook } from "~/domains/shops/webhook-route.server";
import { orderCreated } from "~/domains/lists/order-confirmations.server";

export const { loader, action } = platformWebhook(["orders/create"], orderCreated);
