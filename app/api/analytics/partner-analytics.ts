// `GET /partner/analytics?days=30`: the caller's partner's events per UTC day and event (the merchant admin's charts).
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { partnerAnalytics } from "~/domains/analytics/analytics.server";
import { partnerIdOf } from "~/api/partner/params";

export const loader = endpoint({
  GET: route(
    "partner",
    {
      summary: "Analytics events of the caller's partner per day and event over the last `days` days (1 to 90, default 30)",
      description: "The series holds every UTC day of the window.",
      query: z.object({ days: z.coerce.number().int().min(1).max(90).default(30) }),
      response: z.object({
        partner_id: z.number().int(),
        days: z.number().int(),
        from: z.string(),
        to: z.string(),
        events: z.array(z.string()),
        series: z.array(z.object({ date: z.string(), counts: z.record(z.string(), z.number().int()) })),
        totals: z.record(z.string(), z.number().int()),
      }),
      errors: { no_partner: 404 },
    },
    ({ partner, query }) => partnerAnalytics(partnerIdOf(partner), query.days),
  ),
});
export const action = loader;
