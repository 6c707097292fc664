// `GET /sitemap-pages.xml` (SPEC 4.8 Sitemaps): public share pages; also served at the site root.
import { endpoint, route } from "~/api/endpoint.server";
import { pagesSitemap } from "~/domains/sitemaps/sitemaps.server";
import { sitemapResponse } from "./document";
import { SITEMAP_DESCRIPTION, sitemapQuery } from "./schemas";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "Sitemap of the public share pages (English page, German alternate)",
      description: SITEMAP_DESCRIPTION,
      tag: "sitemaps",
      query: sitemapQuery,
      produces: "application/xml",
      example: {},
    },
    async ({ query }) => sitemapResponse(await pagesSitemap(query.page ?? null), "application/xml"),
  ),
});
export const action = loader;
