import { z } from "zod";
import { endpoint, REPLICA_READS, route } from "~/api/endpoint.server";
import { priceHistory } from "~/domains/discover/public-products.server";
import { marketOf, marketParam, productIdParams } from "./schemas";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "Price history: one point per UTC day per market and currency (the day's closing price, low and high)",
      params: productIdParams,
      query: z.object({
        market: marketParam,
        currency: z.string().regex(/^[A-Za-z]{3}$/, "must be an ISO 4217 code").optional(),
        days: z.coerce.number().int().min(1).max(365).default(90).describe("Days back, today included (1–365)"),
      }),
      response: z.object({
        product_id: z.number().int(),
        days: z.number().int(),
        since: z.string().describe("First day of the window (YYYY-MM-DD)"),
        series: z.array(
          z.object({
            market: z.string(),
            currency: z.string(),
            points: z.array(
              z.object({
                date: z.string().describe("UTC day"),
                price_minor: z.number().int().describe("Last price recorded that day"),
                low_minor: z.number().int(),
                high_minor: z.number().int(),
                compare_at_price_minor: z.number().int().nullable(),
                recorded_at: z.string().describe("When the closing price was recorded"),
              }),
            ),
          }),
        ),
      }),
      errors: { invalid_product_id: 400, product_not_found: 404 },
    },
    ({ params, query }) => priceHistory(params.productId, { ...query, market: marketOf(query) }),
    REPLICA_READS,
  ),
});
export const action = loader;
