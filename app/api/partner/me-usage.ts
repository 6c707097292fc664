// `GET /me/usage` (SPEC 4.6, 2.7): the caller's partner's usage record this month.
import { endpoint, route } from "~/api/endpoint.server";
import { usageRecord } from "~/domains/metering/usage.server";
import { partnerIdOf } from "./params";

export const loader = endpoint({
  GET: route("partner", ({ partner }) => usageRecord(partnerIdOf(partner, "partner_not_found"))),
});
export const action = loader;
