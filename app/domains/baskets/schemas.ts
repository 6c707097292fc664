// The API shapes of basket configurations (SPEC 4.5) as zod schemas, for the
// route descriptions and the OpenAPI document (baskets.server.ts builds them).
import { z } from "zod";

const checkoutSchema = z
  .object({ mode: z.enum(["cart", "webhook", "link"]), cartUrl: z.string().optional() })
  .describe("How the basket checks out");

/** What a storefront sees: never the webhook URL or secret. */
export const publicBasketSchema = z.object({
  id: z.string().describe("Public id, bkt_…"),
  layout: z.string(),
  primaryColor: z.string(),
  checkout: checkoutSchema,
  webhook: z.boolean().describe("Whether checkouts go to the partner's webhook"),
});

/** The owner's view: adds the webhook URL (not the secret, which is shown once). */
export const partnerBasketSchema = publicBasketSchema.extend({
  webhookUrl: z.string().nullable(),
  shopId: z.number().int().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** Create and update answer the configuration, and the webhook secret when one was just made. */
export const basketWriteResultSchema = z.object({
  basket: partnerBasketSchema,
  webhookSecret: z.string().optional().describe("Only when a webhook URL was set now: shown this once"),
});

export const basketParams = z.object({ id: z.string().describe("The basket's public id (bkt_…)") });
