// `GET /me/usage` (SPEC 4.6, 2.7): the caller's partner's usage record this month.
import { endpoint, route } from "~/api/endpoint.server";
import { usageRecord } from "~/domains/metering/usage.server";
import { usageRecordSchema } from "~/domains/metering/schemas";
import { partnerIdOf } from "./params";

export const loader = endpoint({
  GET: route(
    "partner",
    {
      summary: "The partner's usage record of this month (SPEC 2.7)",
      response: usageRecordSchema,
      errors: { partner_not_found: 404, plan_limits_not_found: 500 },
    },
    ({ partner }) => usageRecord(partnerIdOf(partner, "partner_not_found")),
  ),
});
export const action = loader;
