// POST /webhooks/products/delete: the catalogue entry is no longer available (README "Shopify webhooks").
import { platformWebhook } from "~/domains/shops/webhook-route.server";
import { productDeleted } from "~/domains/products/platform-products.server";

export const { loader, action } = platformWebhook(["products/delete"], productDeleted);
