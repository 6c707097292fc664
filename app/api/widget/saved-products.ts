import { z } from "zod";
import { endpoint, REPLICA_READS, route, SHOPPER } from "~/api/endpoint.server";
import { parseLocale } from "~/api/locale.server";
import { localeQuery, savedProductSchema } from "~/domains/lists/schemas";
import { savedProductsForWidget } from "~/domains/lists/widget-saves.server";

// POST exists for clients that cannot send custom headers on GET.
const list = route(
  "widget+user",
  {
    summary: "The user's saved products from this partner (with an account token: all of them when none are)",
    description: "Items saved through this partner (without a partner: from this origin's host). With an account token, all of the user's items when there are none; a shop page's shopper credential never sees other shops' items.",
    query: localeQuery.extend({ fresh: z.enum(["1"]).optional().describe("1: read from the primary database (right after a change of the shopper's own)") }),
    response: z.object({
      products: z.array(savedProductSchema.extend({ wish_ref: z.string().describe("Signed item reference for cart lines") })),
    }),
  },
  ({ user, widget, url }) => savedProductsForWidget(user, widget, parseLocale(url)),
  // Heart state: from the read replica, except for a shopper who just changed it (`fresh=1`, or a write through this instance).
  { ...SHOPPER, ...REPLICA_READS },
);

export const loader = endpoint({ GET: list, POST: list });
export const action = loader;
