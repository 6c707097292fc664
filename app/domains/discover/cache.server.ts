// Rankings computed from a window of saves are kept in memory for a short
// while per process (DISCOVER_CACHE_SECONDS, default 60): a burst of requests
// costs one computation, and an answer is at most that many seconds stale.
// Concurrent misses of one key share the computation in flight.
import { env } from "~/env.server";

const entries = new Map<string, { until: number; value: Promise<unknown> }>();
const MAX_ENTRIES = 1_000;

export function cached<T>(key: string, compute: () => Promise<T>): Promise<T> {
  const ttl = env.DISCOVER_CACHE_SECONDS * 1000;
  const now = Date.now();
  const hit = entries.get(key);
  if (hit && hit.until > now) return hit.value as Promise<T>;
  const value = compute();
  if (ttl > 0) {
    if (entries.size >= MAX_ENTRIES) entries.clear();
    entries.set(key, { until: now + ttl, value });
    // A failure is not kept: the next request computes again.
    value.catch(() => entries.delete(key));
  }
  return value;
}
