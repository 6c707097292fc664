// What `POST /widget/init` needs to know about a public key, cached in
// process: the key row, its partner's plan, the partner's shops and newest
// basket configuration. Every shop page asks for the same key, so reading
// four tables per page view was pure repetition.
//
// Freshness:
// - A write anywhere calls invalidateKeyConfig(partnerId) (keys, partners,
//   shop provisioning, subscriptions, shop webhooks, baskets): this process
//   forgets at once, the other workers by a message, every other process
//   (instances, the CLI's writes) by a change signal before its next init
//   (app/db/change-signals.server.ts). While a PostgreSQL process is not
//   listening for signals, it reads the database on every init.
// - CONFIG_CACHE_TTL_MS (default 2 s) bounds what a lost signal can cost
//   (a writer that died between its write and its signal).
// - Revocation and rotation do not rely on this cache: init also asks the
//   key-status view (key-status.server.ts), as every widget-token route does
//   (SPEC 5 rule 6).
import { db, type Prisma } from "~/db.server";
import { env } from "~/env.server";
import { catchUp, onChange, signalChange, signalsLive } from "~/db/change-signals.server";
import { onSiblingMessage, tellSiblings } from "~/lib/sibling-bus.server";
import { allowedDomainsOf } from "./key-rules";

const CONFIG_SELECT = {
  id: true,
  partnerId: true,
  environment: true,
  status: true,
  allowedDomains: true,
  requestPlan: true,
  createdAt: true,
  graceExpiresAt: true,
  partner: {
    select: {
      id: true,
      plan: true,
      shops: {
        orderBy: { installedAt: "asc" },
        select: { id: true, domain: true, primaryDomain: true, active: true, trialEndsAt: true, subscriptionStatus: true },
      },
      basketConfigs: {
        orderBy: { createdAt: "desc" },
        take: 1,
        select: { publicId: true, layout: true, primaryColor: true, checkout: true },
      },
    },
  },
} satisfies Prisma.ApiKeySelect;
type ConfigRow = Prisma.ApiKeyGetPayload<{ select: typeof CONFIG_SELECT }>;

export interface KeyConfig {
  key: Omit<ConfigRow, "partner" | "allowedDomains"> & { allowedDomains: string[] };
  partner: Pick<ConfigRow["partner"], "id" | "plan">;
  /** Oldest install first. */
  shops: ConfigRow["partner"]["shops"];
  /** The newest basket configuration, or null. */
  basket: ConfigRow["partner"]["basketConfigs"][number] | null;
}

/** Enough for every key a busy instance serves; beyond it the oldest entries go first. */
const MAX_ENTRIES = 10_000;

interface Entry {
  loadedAt: number;
  /** Known once loaded; an entry still loading is dropped by any invalidation. */
  partnerId: number | null;
  config: Promise<KeyConfig | null>;
}

const entries = new Map<string, Entry>();

async function load(publicKey: string): Promise<KeyConfig | null> {
  const row = await db.apiKey.findUnique({ where: { key: publicKey }, select: CONFIG_SELECT });
  if (!row) return null;
  const { partner, ...key } = row;
  return {
    key: { ...key, allowedDomains: allowedDomainsOf(key) },
    partner: { id: partner.id, plan: partner.plan },
    shops: partner.shops,
    basket: partner.basketConfigs[0] ?? null,
  };
}

/**
 * The configuration of a public key, or null for a key that does not exist.
 * Says nothing about revocation: check the key-status view as well.
 */
export function keyConfig(publicKey: string, now = Date.now()): Promise<KeyConfig | null> {
  catchUp();
  if (!signalsLive()) return load(publicKey);
  const cached = entries.get(publicKey);
  if (cached && now - cached.loadedAt < env.CONFIG_CACHE_TTL_MS) return cached.config;
  if (cached) entries.delete(publicKey);
  const entry: Entry = { loadedAt: now, partnerId: null, config: load(publicKey) };
  if (env.CONFIG_CACHE_TTL_MS === 0) return entry.config;
  if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  entries.set(publicKey, entry);
  // Concurrent first requests share one load; unknown keys and failures are not kept
  // (random keys must not push real ones out).
  entry.config.then(
    (config) => {
      if (config) entry.partnerId = config.partner.id;
      else if (entries.get(publicKey) === entry) entries.delete(publicKey);
    },
    () => {
      if (entries.get(publicKey) === entry) entries.delete(publicKey);
    },
  );
  return entry.config;
}

/**
 * Forgets the cached configuration of the partner's keys (every key when no
 * partner is named), in every process. Call it after any write to a key, the
 * partner's plan, its shops or its basket configurations; the promise
 * resolves once the other processes are told.
 */
export function invalidateKeyConfig(partnerId?: number): Promise<void> {
  forget(partnerId);
  tellSiblings("key-config", partnerId ?? null);
  return signalChange("key-config", { partnerId: partnerId ?? null });
}

// The other workers of this instance drop it at once, as this one did.
onSiblingMessage<number | null>("key-config", (partnerId) => forget(partnerId ?? undefined));
// Other processes: the partner named (PostgreSQL), or everything (SQLite, or a reconnected listener).
onChange<{ partnerId: number | null }>("key-config", {
  apply: ({ partnerId }) => forget(partnerId ?? undefined),
  reload: () => forget(undefined),
});

function forget(partnerId: number | undefined): void {
  for (const [publicKey, entry] of entries) {
    if (partnerId === undefined || entry.partnerId === null || entry.partnerId === partnerId) entries.delete(publicKey);
  }
}
