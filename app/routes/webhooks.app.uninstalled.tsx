// POST /webhooks/app/uninstalled: the shop turns inactive, its sessions go (README "Shopify webhooks").
import { platformWebhook } from "~/domains/shops/webhook-route.server";
import { shopUninstalled } from "~/domains/shops/platform-webhooks.server";

export const { loader, action } = platformWebhook(["app/uninstalled"], shopUninstalled);
