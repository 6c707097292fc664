// `/sitemap-shops.json`: the site-root address of `GET /api/v1/sitemap-shops.json`, same document and headers.
import { remixRoute } from "~/api/endpoint.server";
import { loader as sitemap } from "~/api/sitemaps/shops-json";

export const loader = remixRoute(sitemap);
