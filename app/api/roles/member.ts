// `PATCH /partners/{partnerId}/members/{userId}` (owners: change the role) and
// `DELETE` (owners, or a member leaving); the last owner stays (409 `last_owner`).
import { z } from "zod";
import { endpoint, LIVE_SESSION, route } from "~/api/endpoint.server";
import { removeMember, updateMember } from "~/domains/partners/members.server";
import { memberParams, memberSchema } from "./schemas";

const access = { invalid_partner_id: 400, no_partner: 404, not_found: 404, forbidden: 403, last_owner: 409 };

export const loader = endpoint({
  PATCH: route(
    "partner",
    {
      summary: "Change a member's role (owners only; the last owner cannot be demoted)",
      params: memberParams,
      body: z.object({ role: z.enum(["owner", "member"]) }),
      codes: { missing: { role: "invalid_role" }, invalid: { role: "invalid_role" } },
      response: z.object({ member: memberSchema }),
      errors: access,
    },
    ({ partner, params, body }) => updateMember(partner, params.partnerId, params.userId, body.role),
    LIVE_SESSION,
  ),
  DELETE: route(
    "partner",
    {
      summary: "Remove a member (owners, or members leaving; the last owner cannot be removed)",
      params: memberParams,
      response: z.object({ ok: z.literal(true), user_id: z.string() }),
      errors: access,
    },
    ({ partner, params }) => removeMember(partner, params.partnerId, params.userId),
    LIVE_SESSION,
  ),
});
export const action = loader;
