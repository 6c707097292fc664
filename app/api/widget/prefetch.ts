import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { prefetch } from "~/domains/widget/prefetch.server";
import { scrapeResultSchema } from "~/domains/products/schemas";

export const loader = endpoint({
  POST: route(
    "widget",
    {
      summary: "A product URL's canonical form and page facts, before the shopper opens the dialog",
      description: "Body `{url, market?}`.",
      response: z.object({ ok: z.literal(true), canonical_url: z.string(), result: scrapeResultSchema }),
      errors: { internal_error: 500 },
    },
    ({ body }) => prefetch(body),
  ),
});
export const action = loader;
