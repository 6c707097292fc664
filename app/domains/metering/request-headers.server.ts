// Which requests carry the per-key X-RateLimit-* / X-Usage-* headers (SPEC
// 8.3): the route groups below, when a public key can be resolved from the
// widget token or a bearer public key. Never on OPTIONS, /health or
// /analytics/*, and absent when no key is known (e.g. public list reads).
import { db } from "~/db.server";
import { verifyWidgetToken } from "~/domains/widget/token.server";
import { effectiveRequestPlan } from "~/domains/plans/plans";
import { countRequest } from "./request-counter.server";
import type { HeaderReader } from "~/lib/api/http";

type WithMethod = { readonly method: string; readonly headers: HeaderReader };

export interface MeteredKey {
  id: number;
  requestPlan: string;
}

const METERED = /^\/api\/v1\/(widget|hosted|shops|baskets|products)(\/|$)/;

// Bearer public keys seen recently → their key id and plan. Headers are
// informational, so a minute of staleness is fine.
const keyCache = new Map<string, { key: MeteredKey | null; until: number }>();

async function keyOfBearer(value: string): Promise<MeteredKey | null> {
  const hit = keyCache.get(value);
  if (hit && hit.until > Date.now()) return hit.key;
  const row = await db.apiKey.findUnique({
    where: { key: value },
    select: { id: true, requestPlan: true, partner: { select: { plan: true } } },
  });
  const key = row ? { id: row.id, requestPlan: effectiveRequestPlan(row.requestPlan, row.partner.plan) } : null;
  if (keyCache.size > 10_000) keyCache.clear();
  keyCache.set(value, { key, until: Date.now() + 60_000 });
  return key;
}

async function resolveKey(request: WithMethod): Promise<MeteredKey | null> {
  const widgetToken = request.headers.get("x-widget-token");
  if (widgetToken) {
    const widget = await verifyWidgetToken(widgetToken);
    if (widget) return { id: widget.apiKeyId, requestPlan: widget.requestPlan };
  }
  const bearer = request.headers.get("authorization")?.match(/^Bearer\s+(pk_(?:test|live)_\S+)$/i)?.[1];
  return bearer ? keyOfBearer(bearer) : null;
}

/** Counts the request against its key and returns the headers; {} when not metered. */
export async function meteringHeaders(request: WithMethod, pathname: string, known: MeteredKey | null): Promise<Record<string, string>> {
  if (request.method === "OPTIONS" || !METERED.test(pathname)) return {};
  const key = known ?? (await resolveKey(request));
  return key ? countRequest(key.id, key.requestPlan) : {};
}
