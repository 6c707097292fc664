// `GET /partner/access-tokens` (metadata only) and `POST /partner/access-tokens`
// (the token is in this one response and never again; SPEC section 5 rule 7).
import { z } from "zod";
import { endpoint, json, LIVE_SESSION, route } from "~/api/endpoint.server";
import { objectBody } from "~/lib/api/schemas";
import { createPersonalAccessToken, personalAccessTokenJson } from "~/domains/partners/access-tokens.server";
import { listPartnerAccessTokens } from "~/domains/partners/partners.server";
import { accessTokenSchema, createdAccessTokenSchema } from "~/domains/partners/schemas";
import { partnerIdOf } from "./params";

const MAX_NAME = 100;

// The domain checks the range of expires_in_days (1 to 3650, default 365): 400 invalid_input.
const createBody = objectBody(
  z.object({
    name: z.string().max(MAX_NAME).optional(),
    expires_in_days: z.number().optional(),
  }),
);

export const loader = endpoint({
  GET: route(
    "partner",
    {
      summary: "The partner's personal access tokens (metadata only, never the token)",
      description: "Each token carries `created_by`: the portal user whose role in the partner it acts with (null for tokens no portal user made, which act as an owner outside people management).",
      response: z.object({ access_tokens: z.array(accessTokenSchema) }),
      errors: { no_partner: 404, partner_not_found: 404 },
    },
    async ({ partner }) => ({
      access_tokens: (await listPartnerAccessTokens(partnerIdOf(partner))).map(personalAccessTokenJson),
    }),
  ),
  POST: route(
    "partner",
    {
      summary: "Create a personal access token; the token is in this answer and never again",
      description: "Body `{name?, expires_in_days?}`. The token acts with its creator's role, as it is at each request, and dies with the creator's membership.",
      body: createBody,
      status: 201,
      response: createdAccessTokenSchema,
      errors: { no_partner: 404, partner_not_found: 404 },
    },
    async ({ partner, body }) => {
      const partnerId = partnerIdOf(partner);
      // The new token acts with the rights of whoever this caller acts for, never more.
      const created = await createPersonalAccessToken(partnerId, { name: body.name, expiresInDays: body.expires_in_days, createdById: partner.actingFor });
      return json(created, { status: 201 });
    },
    LIVE_SESSION,
  ),
});
export const action = loader;
