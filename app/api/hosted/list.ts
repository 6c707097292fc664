import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { isImageUrl, MAX_URL_LENGTH } from "~/lib/api/schemas";
import { deleteList, getList, updateList } from "~/domains/lists/lists.server";
import { parseLocale } from "~/domains/lists/serialize";

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
  GET: route("user", ({ user, params, url }) => getList(params.token, user.userId, parseLocale(url))),
  PUT: route("user", { body: listUpdateBody }, ({ user, params, body }) => updateList(params.token, user.userId, body)),
  DELETE: route("user", ({ user, params }) => deleteList(params.token, user.userId)),
});
export const action = loader;
