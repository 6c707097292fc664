// Matching a page origin against a key's allow-list (SPEC 5 rules 3-4,
// GUIDE section 8). `*.example.com` matches subdomains only, never the bare
// domain, `evilexample.com` or `example.com.evil.net`; localhost is always
// allowed.

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** The lowercase host of an origin like `https://shop.example.com:8443`, or null if it is not one. */
export function originHost(origin: string): string | null {
  try {
    const url = new URL(origin);
    if (url.protocol !== "https:" && url.protocol !== "http:") return null;
    return url.hostname.toLowerCase().replace(/\.$/, "");
  } catch {
    return null;
  }
}

export function isLocalHost(host: string): boolean {
  return LOCAL_HOSTS.has(host) || host.endsWith(".localhost");
}

export function hostMatches(host: string, entry: string): boolean {
  if (entry.startsWith("*.")) {
    const suffix = entry.slice(1); // ".example.com"
    return host.endsWith(suffix) && host.length > suffix.length;
  }
  return host === entry;
}

/** An empty allow-list allows any origin (test keys, live keys from before 2026-09-01). */
export function originAllowed(host: string, allowList: readonly string[]): boolean {
  if (isLocalHost(host)) return true;
  if (allowList.length === 0) return true;
  return allowList.some((entry) => hostMatches(host, entry));
}
