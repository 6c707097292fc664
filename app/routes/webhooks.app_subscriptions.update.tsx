// POST /webhooks/app_subscriptions/update: a subscription of the shop changed
// status (bought, cancelled, declined, expired); the partner's plan and the
// shop's subscription_status follow (app/domains/shops/subscription.server.ts).
import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "~/webhooks/receive.server";
import { subscriptionUpdated } from "~/domains/shops/subscription.server";

export const action = ({ request }: ActionFunctionArgs) => receiveWebhook(request, ["app_subscriptions/update"], subscriptionUpdated);
export const loader = action;
