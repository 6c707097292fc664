// POST /webhooks/compliance: Shopify's mandatory compliance topics, one
// address for the three (README "Shopify webhooks").
import { customerDataRequested, customerRedacted, shopRedacted } from "~/domains/shops/compliance.server";
import { platformWebhook, type PlatformWebhook } from "~/domains/shops/webhook-route.server";

const handlers: Record<string, (hook: PlatformWebhook) => Promise<void>> = {
  "customers/data_request": customerDataRequested,
  "customers/redact": customerRedacted,
  "shop/redact": shopRedacted,
};

export const { loader, action } = platformWebhook(Object.keys(handlers), (hook) => handlers[hook.topic]!(hook));
