import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { prefetch } from "~/domains/widget/prefetch.server";
import { scrapeResultSchema } from "~/domains/products/schemas";
import { objectBody, lenientString } from "~/lib/api/schemas";

// A url that is absent, blank or no string is 400 invalid_input; a market that is no string is ignored.
const prefetchBody = objectBody(
  z.object({
    url: z.string().trim().min(1).describe("The product page's URL"),
    market: lenientString().describe("Locale like de-DE, sent as Accept-Language"),
  }),
);

export const loader = endpoint({
  POST: route(
    "widget",
    {
      summary: "A product URL's canonical form and page facts, before the shopper opens the dialog",
      body: prefetchBody,
      response: z.object({ ok: z.literal(true), canonical_url: z.string(), result: scrapeResultSchema }),
      errors: { internal_error: 500 },
    },
    ({ body }) => prefetch(body),
  ),
});
export const action = loader;
