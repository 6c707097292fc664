// Which requests carry the per-key X-RateLimit-* / X-Usage-* headers (SPEC
// 8.3): the route groups below, when a public key can be resolved from the
// widget token or a bearer public key. Never on OPTIONS, /health or
// /analytics/*, and absent when no key is known (e.g. public list reads).
import { meteredKeyOf, type MeteredKey } from "~/domains/metering/metered-key.server";
import { countRequest, type RequestUsage } from "~/domains/metering/request-counter.server";
import { verifyWidgetToken } from "~/domains/widget/token.server";
import type { HeaderReader } from "~/lib/api/http";

type WithMethod = { readonly method: string; readonly headers: HeaderReader };

const METERED = /^\/api\/v1\/(widget|hosted|shops|baskets|products)(\/|$)/;

async function resolveKey(request: WithMethod): Promise<MeteredKey | null> {
  const widgetToken = request.headers.get("x-widget-token");
  if (widgetToken) {
    const widget = await verifyWidgetToken(widgetToken);
    if (widget) return { id: widget.apiKeyId, requestPlan: widget.requestPlan };
  }
  const bearer = request.headers.get("authorization")?.match(/^Bearer\s+(pk_(?:test|live)_\S+)$/i)?.[1];
  return bearer ? meteredKeyOf(bearer) : null;
}

/** Counts the request against its key and returns the headers; {} when not metered. */
export async function meteringHeaders(request: WithMethod, pathname: string, known: MeteredKey | null): Promise<Record<string, string>> {
  if (request.method === "OPTIONS" || !METERED.test(pathname)) return {};
  const key = known ?? (await resolveKey(request));
  return key ? usageHeaders(countRequest(key.id, key.requestPlan)) : {};
}

function usageHeaders(usage: RequestUsage): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(usage.perMinute),
    "X-RateLimit-Remaining": String(usage.minuteRemaining),
    "X-RateLimit-Reset": usage.resetAt.toISOString(),
    "X-Usage-Month": String(usage.month),
    "X-Usage-Limit": String(usage.monthlyCalls),
    "X-Usage-Overage": usage.overage.toFixed(4),
  };
}
