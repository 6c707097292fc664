import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { savedProductsOfUser } from "~/domains/lists/saved-products.server";
import { localeQuery, savedProductSchema } from "~/domains/lists/schemas";
import { parseLocale } from "~/api/locale.server";

export const loader = endpoint({
  POST: route(
    "user",
    {
      summary: "Everything the user saved across the lists they own, newest first",
      query: localeQuery,
      response: z.object({ products: z.array(savedProductSchema) }),
    },
    ({ user, url }) => savedProductsOfUser(user.userId, parseLocale(url)),
  ),
});
export const action = loader;
