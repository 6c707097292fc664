// POST /webhooks/shop/update: name, e-mail, currency, primary domain (and the keys' allow-lists) (README "Shopify webhooks").
import { platformWebhook } from "~/domains/shops/webhook-route.server";
import { shopUpdated } from "~/domains/shops/platform-webhooks.server";

export const { loader, action } = platformWebhook(["shop/update"], shopUpdated);
