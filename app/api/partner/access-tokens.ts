// `GET /partner/access-tokens` (metadata only) and `POST /partner/access-tokens`
// (the token is in this one response and never again; SPEC section 5 rule 7).
import { endpoint, json, LIVE_SESSION, route } from "~/api/endpoint.server";
import { badRequest } from "~/lib/api/errors";
import { createPersonalAccessToken, personalAccessTokenJson } from "~/domains/partners/access-tokens.server";
import { listPartnerAccessTokens } from "~/domains/partners/partners.server";
import { bodyObject, partnerIdOf } from "./params";

const MAX_NAME = 100;

export const loader = endpoint({
  GET: route("partner", async ({ partner }) => ({
    access_tokens: (await listPartnerAccessTokens(partnerIdOf(partner))).map(personalAccessTokenJson),
  })),
  POST: route("partner", async ({ partner, body }) => {
    const partnerId = partnerIdOf(partner);
    const { name, expires_in_days: days } = bodyObject(body);
    if (name !== undefined && (typeof name !== "string" || name.length > MAX_NAME)) {
      throw badRequest("invalid_input", `name must be a string of at most ${MAX_NAME} characters`);
    }
    if (days !== undefined && typeof days !== "number") throw badRequest("invalid_input", "expires_in_days must be an integer");
    // The domain checks the range of expires_in_days (default 365).
    return json(await createPersonalAccessToken(partnerId, { name, expiresInDays: days }), { status: 201 });
  }, LIVE_SESSION),
});
export const action = loader;
