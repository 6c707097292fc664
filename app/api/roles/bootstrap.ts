// `POST /partner/bootstrap`: the signed-in portal user's partner, created (caller as owner) when there is none.
import { z } from "zod";
import { endpoint, json, route } from "~/api/endpoint.server";
import { bootstrapPartner } from "~/domains/partners/members.server";
import { partnerSchema } from "./schemas";

export const loader = endpoint({
  POST: route(
    "user",
    {
      summary: "Create the caller's partner (caller becomes its owner), or return the existing one; idempotent",
      description: "Name and e-mail from the body, else the account's; 400 `invalid_email` when there is no address.",
      body: z.object({
        name: z.string().trim().min(1).max(200).optional(),
        email: z.string().trim().max(320).optional(),
      }),
      response: z.object({ created: z.boolean(), partner: partnerSchema, role: z.string().nullable() }),
      status: 201,
      alsoStatus: { 200: "The caller already has a partner: it is returned unchanged (`created: false`)" },
      errors: { invalid_email: 400 },
      example: { body: { name: "Example Shop", email: "owner@shop.example" } },
    },
    async ({ user, body }) => {
      const result = await bootstrapPartner(user.userId, body);
      return json(result, { status: result.created ? 201 : 200 });
    },
  ),
});
export const action = loader;
