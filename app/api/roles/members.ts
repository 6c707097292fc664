// `GET /partners/{partnerId}/members` (any member) and `POST` (owners): portal users of a partner and their roles.
import { z } from "zod";
import { endpoint, json, LIVE_SESSION, route } from "~/api/endpoint.server";
import { addMember, listMembers } from "~/domains/partners/members.server";
import { memberSchema, partnerIdParams } from "./schemas";

const access = { invalid_partner_id: 400, no_partner: 404, not_found: 404, forbidden: 403 };

export const loader = endpoint({
  GET: route(
    "partner",
    {
      summary: "Members of a partner with their roles (members and the partner's access tokens)",
      params: partnerIdParams,
      response: z.object({ members: z.array(memberSchema) }),
      errors: access,
    },
    ({ partner, params }) => listMembers(partner, params.partnerId),
  ),
  POST: route(
    "partner",
    {
      summary: "Add a portal user (by userId or email) to the partner as owner or member (owners only)",
      description: "Body `{userId | email, role: owner | member}` (400 `missing_user`, `invalid_role`). Managing members takes a portal sign-in: a personal access token is refused (403 `forbidden`).",
      params: partnerIdParams,
      body: z
        .object({
          userId: z.string().trim().min(1).max(100).optional(),
          email: z.string().trim().email().max(320).optional(),
          role: z.enum(["owner", "member"]).default("member"),
        })
        .refine((b) => b.userId !== undefined || b.email !== undefined, { message: "userId or email is required", path: ["userId"] }),
      codes: { missing: { userId: "missing_user" }, invalid: { role: "invalid_role" } },
      response: z.object({ member: memberSchema }),
      status: 201,
      errors: { ...access, user_not_found: 404, already_member: 409 },
    },
    async ({ partner, params, body }) => json(await addMember(partner, params.partnerId, body), { status: 201 }),
    LIVE_SESSION,
  ),
});
export const action = loader;
