// The key a request counts against (SPEC 8.3): its id and effective request
// plan, for a public key presented as a bearer credential.
import { db } from "~/db.server";
import { effectiveRequestPlan } from "~/domains/plans/plans";

export interface MeteredKey {
  id: number;
  requestPlan: string;
}

// Bearer public keys seen recently → their key id and plan. Headers are
// informational, so a minute of staleness is fine.
const keyCache = new Map<string, { key: MeteredKey | null; until: number }>();

/** The key behind a public key (`pk_…`); null when there is none. */
export async function meteredKeyOf(publicKey: string): Promise<MeteredKey | null> {
  const hit = keyCache.get(publicKey);
  if (hit && hit.until > Date.now()) return hit.key;
  const row = await db.apiKey.findUnique({
    where: { key: publicKey },
    select: { id: true, requestPlan: true, partner: { select: { plan: true } } },
  });
  const key = row ? { id: row.id, requestPlan: effectiveRequestPlan(row.requestPlan, row.partner.plan) } : null;
  if (keyCache.size > 10_000) keyCache.clear();
  keyCache.set(publicKey, { key, until: Date.now() + 60_000 });
  return key;
}
