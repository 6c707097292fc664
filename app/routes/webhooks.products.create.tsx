// POST /webhooks/products/create: the catalogue entry of the new product (README "Shopify webhooks").
import { platformWebhook } from "~/domains/shops/webhook-route.server";
import { productChanged } from "~/domains/products/platform-products.server";

export const { loader, action } = platformWebhook(["products/create"], productChanged);
