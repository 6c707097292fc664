// The address of the client behind a request, as the server entry resolved
// it (app/server/main.ts: the connection's peer, or the X-Forwarded-For entry
// a trusted proxy vouches for). Never read from request headers here: any
// client can send those.
import ipaddr from "ipaddr.js";

/** The client's address in canonical form (IPv4-mapped IPv6 as IPv4); null when unknown (dev server). */
export function clientAddress(context: unknown): string | null {
  const raw = (context as { clientAddress?: unknown } | null | undefined)?.clientAddress;
  if (typeof raw !== "string" || !ipaddr.isValid(raw)) return null;
  return ipaddr.process(raw).toString();
}

/**
 * The unit one client controls: an IPv4 address, or an IPv6 /64 (the
 * smallest prefix a provider hands out, so one household cannot rotate
 * through addresses of its own prefix).
 */
export function addressUnit(address: string): string {
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(":")}::/64`;
}
