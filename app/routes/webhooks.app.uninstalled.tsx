// POST /webhooks/app/uninstalled: the shop turns inactive, its sessions go (docs/shopify.md "Shopify webhooks").
import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "~/webhooks/receive.server";
import { shopUninstalled } from "~/domains/shops/platform-webhooks.server";

export const action = ({ request }: ActionFunctionArgs) => receiveWebhook(request, ["app/uninstalled"], shopUninstalled);
export const loader = action;
