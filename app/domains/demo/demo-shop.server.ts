// The demo shop of a local installation (`/demo`, docs/getting-started.md):
// a partner and a public test key that the app provisions for itself on first
// use, so a newcomer can click the save button of a fresh install with nothing
// set up. Later requests and restarts find the same partner again by its name
// and e-mail address.
import { db } from "~/db.server";
import { env } from "~/env.server";
import { createApiKey, normalizeDomain, setAllowList } from "~/domains/keys/keys.server";
import { allowedDomainsOf } from "~/domains/keys/key-rules";
import { createPartner } from "~/domains/partners/partners.server";

export const DEMO_PARTNER = { name: "Demo shop", email: "demo-shop@example.com" } as const;

export interface DemoShop {
  partnerId: number;
  /** The public key (`pk_test_…`) the page's widget.js uses. */
  publicKey: string;
}

/**
 * The key's allow-list: the app's own host, where the demo page lives. Hosts
 * an allow-list cannot name (localhost, IP addresses) leave it empty; a test
 * key with an empty list works on any origin, and localhost always does.
 */
function ownDomains(): string[] {
  try {
    return [normalizeDomain(new URL(env.APP_URL).hostname)];
  } catch {
    return [];
  }
}

async function provision(): Promise<DemoShop> {
  const partner =
    (await db.partner.findFirst({ where: DEMO_PARTNER, orderBy: { id: "asc" } })) ??
    (await createPartner({ ...DEMO_PARTNER, plan: "free" }));
  const domains = ownDomains();
  const key = await db.apiKey.findFirst({
    where: { partnerId: partner.id, environment: "test", status: "active" },
    orderBy: { id: "asc" },
  });
  if (!key) {
    const created = await createApiKey(partner.id, { environment: "test", allowedDomains: domains });
    return { partnerId: partner.id, publicKey: created.key };
  }
  // APP_URL may have changed since the key was made.
  if (allowedDomainsOf(key).join(",") !== domains.join(",")) await setAllowList(partner.id, key.id, domains);
  return { partnerId: partner.id, publicKey: key.key };
}

let inFlight: Promise<DemoShop> | null = null;

/** The demo partner and its key, created when missing (concurrent first requests of a process share one provisioning). */
export function demoShop(): Promise<DemoShop> {
  inFlight ??= provision().finally(() => {
    inFlight = null;
  });
  return inFlight;
}
