// `GET /sitemap-shops.json` (SPEC 4.8 Sitemaps): the JSON twin of the shops sitemap; also served at the site root.
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { shopsSitemapJson } from "~/domains/sitemaps/sitemaps.server";
import { sitemapResponse } from "./document";
import { sitemapQuery } from "./schemas";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "The published shop pages as JSON, one sitemap file at a time",
      description:
        "The same files as `/sitemap-shops.xml` (page 1 when `page` is absent) and the same document as at the site root; `next` is the next file's address (at the root).",
      tag: "sitemaps",
      query: sitemapQuery,
      response: z.object({
        shops: z.array(z.object({ handle: z.string(), name: z.string(), url: z.string(), lastmod: z.string() })),
        next: z.string().optional(),
      }),
      example: {},
    },
    async ({ query }) => sitemapResponse(await shopsSitemapJson(query.page ?? null), "application/json"),
  ),
});
export const action = loader;
