// Share pages and link previews behind a CDN (docs/operations.md "Running
// behind a CDN"). Cacheable answers name what they show in cache keys
// (Surrogate-Key / Cache-Tag headers, set by the HTTP wing from cacheKeys);
// every write that changes what they show calls purgeCdn with the same keys.
// The purge request goes through the outbox: it commits nothing with the
// write, never blocks or fails it, and is retried with the outbox's backoff.
// Off (no message at all) unless CDN_PURGE_URL is set.
import { env } from "~/env.server";
import { errorFields, log } from "~/lib/log.server";
import { enqueue } from "~/domains/outbox/outbox.server";
import { PermanentFailure, type OutboxJob } from "~/domains/outbox/worker.server";

export const PURGE_KIND = "cdn_purge";
const PURGE_TIMEOUT_MS = 10_000;
/** Product keys a page names at most (header size); a change to a product past them waits for s-maxage. */
export const MAX_PRODUCT_KEYS = 100;

export const listKey = (listId: number) => `wl-list-${listId}`;
export const productKey = (productId: number) => `wl-product-${productId}`;
export const partnerKey = (partnerId: number) => `wl-partner-${partnerId}`;

/** The keys of a list's share page and preview: the list, its products (up to MAX_PRODUCT_KEYS) and the partner whose branding it shows. */
export function cacheKeys(listId: number, productIds: number[], accentPartnerId: number | null): string[] {
  const keys = [listKey(listId), ...[...new Set(productIds)].slice(0, MAX_PRODUCT_KEYS).map(productKey)];
  if (accentPartnerId !== null) keys.push(partnerKey(accentPartnerId));
  return keys;
}

export const purgeEnabled = () => Boolean(env.CDN_PURGE_URL && env.CDN_PURGE_TOKEN);

/**
 * Asks the CDN to drop every copy named by `keys` (after the write that
 * changed them). Never throws: a purge that cannot be queued is logged and
 * the copies age out after CDN_SHARED_MAX_AGE_SECONDS.
 */
export async function purgeCdn(keys: string[]): Promise<void> {
  if (!purgeEnabled() || keys.length === 0) return;
  const tags = [...new Set(keys)];
  try {
    await enqueue({ kind: PURGE_KIND, topic: "cdn", payload: { tags } });
  } catch (err) {
    log.error("cdn purge not queued", { tags, ...errorFields(err) });
  }
}

/** The outbox job that sends a purge: POST `{tags}` with the keys also as `Surrogate-Key`; a non-2xx answer is retried. */
export const cdnPurgeJob: OutboxJob = {
  kind: PURGE_KIND,
  async deliver(message) {
    const tags = (message.payload as { tags?: unknown } | null)?.tags;
    if (!Array.isArray(tags) || !tags.every((t) => typeof t === "string")) throw new PermanentFailure("malformed purge message");
    if (!purgeEnabled()) throw new PermanentFailure("CDN_PURGE_URL is no longer set");
    const header = env.CDN_PURGE_AUTH_HEADER;
    const credential = header.toLowerCase() === "authorization" ? `Bearer ${env.CDN_PURGE_TOKEN}` : env.CDN_PURGE_TOKEN!;
    // The purge URL is operator configuration, not user input: a plain fetch, bounded in time.
    const res = await fetch(env.CDN_PURGE_URL!, {
      method: "POST",
      headers: { "content-type": "application/json", "surrogate-key": tags.join(" "), [header]: credential },
      body: JSON.stringify({ tags }),
      redirect: "error",
      signal: AbortSignal.timeout(PURGE_TIMEOUT_MS),
    });
    await res.body?.cancel().catch(() => undefined);
    if (!res.ok) throw new Error(`CDN purge answered HTTP ${res.status}`);
  },
};
