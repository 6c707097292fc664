// `/sitemap-shops.xml`: the site-root address of `GET /api/v1/sitemap-shops.xml`, same document and headers.
import { remixRoute } from "~/api/endpoint.server";
import { loader as sitemap } from "~/api/sitemaps/shops";

export const loader = remixRoute(sitemap);
