// `GET /partner/me`: the partner the caller acts for and the caller's role in it.
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { partnerMe } from "~/domains/partners/members.server";
import { partnerSchema } from "./schemas";

export const loader = endpoint({
  GET: route(
    "partner",
    {
      summary: "The caller's partner and role (role null for a personal access token)",
      response: z.object({ partner: partnerSchema, role: z.string().nullable() }),
      errors: { no_partner: 404 },
    },
    ({ partner }) => partnerMe(partner),
  ),
});
export const action = loader;
