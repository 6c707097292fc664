// `/sitemap-pages.xml`: the site-root address of `GET /api/v1/sitemap-pages.xml`, same document and headers.
import { remixRoute } from "~/api/endpoint.server";
import { loader as sitemap } from "~/api/sitemaps/pages";

export const loader = remixRoute(sitemap);
