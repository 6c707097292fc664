// GET /app/revenue/export?from=&to=[&table=sources]: the attributed order
// lines of a span of days as CSV, or with `table=sources` the by-source table
// (alerts sent, clicked, conversions) (docs/revenue.md "CSV export"),
// authenticated like every admin request; at most 10,000 rows.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requireAdmin } from "~/admin/session.server";
import { errorResponse } from "~/http/error-reply.server";
import { badRequest } from "~/lib/api/errors";
import { dayRange, revenueCsv, revenueSourcesCsv } from "~/domains/revenue/figures.server";

const query = z.object({ from: z.string().max(20).optional(), to: z.string().max(20).optional(), table: z.enum(["lines", "sources"]).default("lines") });

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop } = await requireAdmin(request); // Shopify's own answers (401 with a reauthorize header, bounce) pass as thrown
  try {
    const parsed = query.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!parsed.success) throw badRequest("invalid_range", "Choose a start and an end date.");
    const range = dayRange(parsed.data.from || undefined, parsed.data.to || undefined);
    const sources = parsed.data.table === "sources";
    const csv = sources ? await revenueSourcesCsv(shop, range) : await revenueCsv(shop.id, range);
    return new Response(csv.body, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="wishlist-revenue-${sources ? "sources-" : ""}${range.from}-${range.to}.csv"`,
        "cache-control": "private, no-store",
        "x-export-rows": String(csv.rows),
        "x-export-truncated": String(csv.truncated),
      },
    });
  } catch (err) {
    return errorResponse(err, request);
  }
};
