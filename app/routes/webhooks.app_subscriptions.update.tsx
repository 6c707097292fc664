// POST /webhooks/app_subscriptions/update: a subscription of the shop changed
// status (bought, cancelled, declined, expired); the partner's plan and the
// shop's subscription_status follow (app/domains/shops/subscription.server.ts).
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { db } from "~/db.server";
import { BILLING_IS_TEST } from "~/shopify.server";
import { authenticateWebhook, jsonResponse, oncePerWebhook } from "~/admin/webhooks.server";
import { applySubscriptionUpdate } from "~/domains/shops/subscription.server";

const payloadSchema = z.object({
  app_subscription: z.object({
    admin_graphql_api_id: z.string().min(1),
    name: z.string(),
    status: z.string().min(1),
  }),
});

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, payload, webhookId, admin } = await authenticateWebhook(request);
  const parsed = payloadSchema.safeParse(payload);
  if (!parsed.success) return jsonResponse(400, { error: "invalid_input", message: "app_subscription with admin_graphql_api_id, name and status is required" });
  const known = await db.platformShop.findUnique({ where: { domain: shop }, select: { partnerId: true } });
  // A shop we never provisioned has nothing to update; 200 so Shopify does not retry.
  if (!known) return jsonResponse(200, { ok: true, processed: false });
  const sub = parsed.data.app_subscription;
  const processed = await oncePerWebhook(webhookId, known.partnerId, async () => {
    await applySubscriptionUpdate(
      shop,
      { id: sub.admin_graphql_api_id, name: sub.name, status: sub.status },
      { acceptTest: BILLING_IS_TEST, graphql: admin?.graphql },
    );
  });
  return jsonResponse(200, { ok: true, processed });
};

export const loader = () =>
  new Response(JSON.stringify({ error: "method_not_allowed", message: "Webhooks are delivered with POST" }), {
    status: 405,
    headers: { "Content-Type": "application/json; charset=utf-8", Allow: "POST" },
  });
