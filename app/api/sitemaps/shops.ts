// `GET /sitemap-shops.xml` (SPEC 4.8 Sitemaps): published shop pages; also served at the site root.
import { endpoint, route } from "~/api/endpoint.server";
import { shopsSitemap } from "~/domains/sitemaps/sitemaps.server";
import { sitemapResponse } from "./document";
import { SITEMAP_DESCRIPTION, sitemapQuery } from "./schemas";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "Sitemap of the published shop pages",
      description: SITEMAP_DESCRIPTION,
      tag: "sitemaps",
      query: sitemapQuery,
      produces: "application/xml",
      example: {},
    },
    async ({ query }) => sitemapResponse(await shopsSitemap(query.page ?? null), "application/xml"),
  ),
});
export const action = loader;
