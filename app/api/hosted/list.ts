import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { isImageUrl, MAX_URL_LENGTH } from "~/lib/api/schemas";
import { deleteList, getList, updateList } from "~/domains/lists/lists.server";
import { parseLocale } from "~/api/locale.server";
import { hostedListSchema, listAccessErrors, localeQuery, tokenParams } from "~/domains/lists/schemas";

/** `PUT /hosted/lists/{token}` (SPEC 4.2): any of these; unknown fields are ignored. */
export const listUpdateBody = z.object({
  name: z.string().max(200).nullish(),
  /** Alias of `name`. */
  title: z.string().max(200).nullish(),
  description: z.string().max(2000).nullish(),
  share_public: z.boolean().optional(),
  /** An image URL (http(s) or the service's /media/images/…); "" removes it. */
  image_path: z
    .string()
    .max(MAX_URL_LENGTH)
    .refine((v) => v === "" || isImageUrl(v), "must be an absolute http(s) URL, a /media/images/<file> path, or empty")
    .nullish(),
  occasion_slug: z.string().max(100).nullish(),
});

export const loader = endpoint({
  GET: route(
    "user",
    {
      summary: "A list's metadata (owner or editor)",
      params: tokenParams,
      query: localeQuery,
      response: z.object({ list: hostedListSchema.extend({ occasion_title: z.string() }) }),
      errors: listAccessErrors,
    },
    ({ user, params, url }) => getList(params.token, user.userId, parseLocale(url)),
  ),
  PUT: route(
    "user",
    {
      summary: "Update a list's metadata (owner only); making it public counts a share",
      description: "Any of `name` (alias `title`), `description`, `share_public`, `image_path` (\"\" removes it) and `occasion_slug` (a known occasion, else 400 `invalid_occasion`). Turning `share_public` on counts a share (once per list and UTC day).",
      params: tokenParams,
      body: listUpdateBody,
      response: z.object({ ok: z.literal(true), list: hostedListSchema }),
      errors: { ...listAccessErrors, missing_name: 400, invalid_occasion: 400 },
    },
    ({ user, params, body }) => updateList(params.token, user.userId, body),
  ),
  DELETE: route(
    "user",
    {
      summary: "Delete a list and its items (owner only)",
      description: "Manual products go with their items; other lists are untouched.",
      params: tokenParams,
      response: z.object({ ok: z.literal(true), deleted: z.string().describe("The deleted list's share token") }),
      errors: listAccessErrors,
    },
    ({ user, params }) => deleteList(params.token, user.userId),
  ),
});
export const action = loader;
