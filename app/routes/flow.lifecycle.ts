// POST /flow/lifecycle: Shopify Flow's trigger lifecycle callback (the
// extensions/flow-lifecycle extension names this address): whether a shop has
// an active workflow starting with one of our triggers (docs/shopify.md "Shopify Flow").
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { recordTriggerLifecycle } from "~/domains/flow/triggers.server";
import { badRequest } from "~/lib/api/errors";
import { receiveLifecycleCallback } from "~/webhooks/flow.server";

const callback = z.object({
  flow_trigger_definition_id: z.string().min(1).max(255),
  has_enabled_flow: z.boolean(),
  shopify_domain: z.string().regex(/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/),
  timestamp: z.string().datetime({ offset: true }),
});

export const action = ({ request }: ActionFunctionArgs) =>
  receiveLifecycleCallback(request, async (body) => {
    const parsed = callback.safeParse(body);
    if (!parsed.success) throw badRequest("invalid_payload", "A lifecycle callback has flow_trigger_definition_id, has_enabled_flow, shopify_domain and timestamp");
    const c = parsed.data;
    const { recorded } = await recordTriggerLifecycle({
      definitionId: c.flow_trigger_definition_id,
      enabled: c.has_enabled_flow,
      shopDomain: c.shopify_domain,
      timestamp: new Date(c.timestamp),
    });
    return { ok: true, recorded };
  });
export const loader = action;
