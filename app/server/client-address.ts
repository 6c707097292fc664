// What the node:http path needs from a raw request before routing it: the path
// and query, and the client's address under express's `trust proxy` rule
// (the API path does not go through express, so req.ip is not there).
import type { IncomingMessage } from "node:http";

/** Express's compiled `trust proxy` function (app.get("trust proxy fn")): is the address at hop `i` a trusted proxy? */
export type TrustFunction = (address: string, hop: number) => boolean;

/** The raw path and query string ("" or "?…") of a request target; absolute-form targets are reduced to their path. */
export function splitTarget(target: string): { pathname: string; search: string } {
  if (!target.startsWith("/")) {
    try {
      const url = new URL(target);
      return { pathname: url.pathname, search: url.search };
    } catch {
      return { pathname: target, search: "" };
    }
  }
  const q = target.indexOf("?");
  return q === -1 ? { pathname: target, search: "" } : { pathname: target.slice(0, q), search: target.slice(q) };
}

/**
 * proxy-addr's rule, as express's req.ip applies it: walk from the
 * connection's peer back through X-Forwarded-For (rightmost first) and stop
 * at the first address that is not a trusted proxy.
 */
export function clientAddressOf(req: IncomingMessage, trust: TrustFunction): string | null {
  const peer = req.socket.remoteAddress;
  if (!peer) return null;
  if (!trust(peer, 0)) return peer;
  const raw = req.headers["x-forwarded-for"];
  const header = Array.isArray(raw) ? raw.join(",") : raw;
  const forwarded = header ? header.split(/[\s,]+/).filter(Boolean).reverse() : [];
  const hops = [peer, ...forwarded];
  for (let i = 0; i < hops.length - 1; i++) if (!trust(hops[i], i)) return hops[i];
  return hops[hops.length - 1];
}
