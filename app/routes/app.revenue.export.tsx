// GET /app/revenue/export?from=&to=: the attributed order lines of a span of
// days as CSV (docs/revenue.md "CSV export"), authenticated like every admin
// request; at most 10,000 rows.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requireAdmin } from "~/admin/session.server";
import { errorResponse } from "~/http/error-reply.server";
import { badRequest } from "~/lib/api/errors";
import { dayRange, revenueCsv } from "~/domains/revenue/figures.server";

const query = z.object({ from: z.string().max(20).optional(), to: z.string().max(20).optional() });

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop } = await requireAdmin(request); // Shopify's own answers (401 with a reauthorize header, bounce) pass as thrown
  try {
    const parsed = query.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!parsed.success) throw badRequest("invalid_range", "Choose a start and an end date.");
    const range = dayRange(parsed.data.from || undefined, parsed.data.to || undefined);
    const csv = await revenueCsv(shop.id, range);
    return new Response(csv.body, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="wishlist-revenue-${range.from}-${range.to}.csv"`,
        "cache-control": "private, no-store",
        "x-export-rows": String(csv.rows),
        "x-export-truncated": String(csv.truncated),
      },
    });
  } catch (err) {
    return errorResponse(err, request);
  }
};
