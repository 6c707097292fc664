// POST /webhooks/compliance: Shopify's mandatory compliance topics, one
// address for the three (docs/shopify.md "Shopify webhooks").
import type { ActionFunctionArgs } from "@remix-run/node";
import { customerDataRequested, customerRedacted, shopRedacted } from "~/flows/compliance.server";
import { receiveWebhook } from "~/webhooks/receive.server";

export const action = ({ request }: ActionFunctionArgs) =>
  receiveWebhook(request, ["customers/data_request", "customers/redact", "shop/redact"], (hook) =>
    hook.topic === "customers/data_request" ? customerDataRequested(hook) : hook.topic === "customers/redact" ? customerRedacted(hook) : shopRedacted(hook),
  );
export const loader = action;
