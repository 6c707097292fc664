// `GET /imports` (the caller's imports) and `POST /imports` (import a public retailer list into a list the caller owns).
import { z } from "zod";
import { endpoint, json, route } from "~/api/endpoint.server";
import { createImport, guarded, listImports } from "~/domains/imports/imports.server";
import { clientAddress } from "~/lib/api/client-address";
import { saverAddress } from "~/domains/metering/actions.server";
import { importSchema, syncResultSchema } from "./schemas";

export const loader = endpoint({
  GET: route(
    "user",
    {
      summary: "The caller's list imports, newest first",
      response: z.object({ imports: z.array(importSchema) }),
      errors: { internal: 500 },
    },
    ({ user }) => guarded(() => listImports(user.userId)),
  ),
  POST: route(
    "user",
    {
      summary: "Import a public retailer wishlist (Amazon list or a page with JSON-LD ItemList/Product) into a list the caller owns",
      description:
        "The target is `wishlistToken` (the list's share token, as in `/hosted/lists/{token}`) or `targetListId` (its `db_id`). " +
        "Amazon URLs must name the list (`/hz/wishlist/ls/<ID>`, `/registry/wishlist/<ID>` or `?lid=<ID>`). " +
        "A page that answers 4xx, is not HTML, holds no readable list or cannot be read within the scrape time budget is `invalid_list_url`; " +
        "a site that fails (5xx, timeout) is `create_failed`. At most `items_limit` items are taken from the page; " +
        "`items_over_limit` says how many it lists past that, `images_not_copied` how many items kept the page's image address.",
      body: z.object({
        listUrl: z.string().trim().min(1).max(2048),
        wishlistToken: z.string().trim().min(1).max(200).optional(),
        targetListId: z.union([z.number().int().positive(), z.string().regex(/^\d{1,15}$/).transform(Number)]).optional(),
      }),
      codes: { missing: { listUrl: "missing_list_url" }, invalid: { listUrl: "invalid_list_url", wishlistToken: "no_target_wishlist", targetListId: "no_target_wishlist" } },
      response: syncResultSchema,
      status: 201,
      errors: {
        invalid_list_url: 400,
        missing_amazon_list_id: 400,
        no_target_wishlist: 400,
        wishlist_not_owned: 403,
        create_failed: 500,
        internal: 500,
      },
    },
    async ({ user, body, context }) => json(await guarded(() => createImport(user.userId, body, saverAddress(clientAddress(context)))), { status: 201 }),
  ),
});
export const action = loader;
