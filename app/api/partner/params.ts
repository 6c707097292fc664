// Request parsing shared by the partner routes (not a route module itself).
import { badRequest, notFound } from "~/lib/api/errors";
import { isPlainObject } from "~/lib/api/schemas";
import type { PartnerPrincipal } from "~/domains/partners/principal";

/** A numeric path id; 400 with `code` otherwise. */
export function parseId(value: string | undefined, code = "invalid_id"): number {
  const id = value !== undefined && /^\d{1,15}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(id)) throw badRequest(code, `${JSON.stringify(value ?? "")} is not a numeric id`);
  return id;
}

/** The partner the caller acts for; a portal user without one gets 404 (`no_partner` on partner routes, SPEC 7.4). */
export function partnerIdOf(principal: PartnerPrincipal, code = "no_partner"): number {
  if (principal.partnerId === null) throw notFound(code, "This user is not linked to a partner");
  return principal.partnerId;
}

/** The body as an object; anything else reads as `{}` so every field is "missing". */
export const bodyObject = (body: unknown): Record<string, unknown> => (isPlainObject(body) ? body : {});

/** `allowed_domains`: an array of strings; each entry is validated by the keys domain (400 `invalid_domain`). */
export function domainList(value: unknown): string[] {
  if (!Array.isArray(value)) throw badRequest("invalid_input", "allowed_domains must be an array of host names");
  if (!value.every((d) => typeof d === "string")) throw badRequest("invalid_domain", "allowed_domains entries must be strings");
  return value;
}
