// POST /webhooks/shop/update: name, e-mail, currency, primary domain (and the keys' allow-lists) (docs/shopify.md "Shopify webhooks").
import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "~/webhooks/receive.server";
import { shopUpdated } from "~/domains/shops/platform-webhooks.server";

export const action = ({ request }: ActionFunctionArgs) => receiveWebhook(request, ["shop/update"], shopUpdated);
export const loader = action;
