import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { imageUrlSchema } from "~/lib/api/schemas";
import { createManualItem } from "~/domains/lists/items.server";
import { parseLocale } from "~/api/locale.server";
import { itemAccessErrors, itemResultSchema, localeQuery, tokenParams } from "~/domains/lists/schemas";

/** `POST /hosted/lists/{token}/items/manual` (SPEC 4.2); 400 `missing_title`, `invalid_priority`. */
export const manualItemBody = z.object({
  title: z.string().trim().min(1).max(500),
  description: z.string().nullish(),
  imageUrl: imageUrlSchema.nullish(),
  price: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).nullish(),
  currency: z.string().regex(/^[A-Za-z]{3}$/, "must be an ISO 4217 code").nullish(),
  priority: z.number().int().min(1).max(4).nullish(),
  marketCode: z.string().max(35).nullish(),
});

export const loader = endpoint({
  POST: route(
    "user",
    {
      summary: "Add an item without a product URL (owner or editor)",
      params: tokenParams,
      query: localeQuery,
      body: manualItemBody,
      codes: { missing: { title: "missing_title" }, invalid: { priority: "invalid_priority" } },
      response: itemResultSchema,
      errors: { ...itemAccessErrors },
    },
    ({ user, params, body, url }) => createManualItem(params.token, user.userId, body, parseLocale(url)),
  ),
});
export const action = loader;
