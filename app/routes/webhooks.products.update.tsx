// POST /webhooks/products/update: title, image, price and availability of the catalogue entry (README "Shopify webhooks").
import { platformWebhook } from "~/domains/shops/webhook-route.server";
import { productChanged } from "~/domains/products/platform-products.server";

export const { loader, action } = platformWebhook(["products/update"], productChanged);
