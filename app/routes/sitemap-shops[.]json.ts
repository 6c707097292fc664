// `/sitemap-shops.json`: the JSON twin of `/sitemap-shops.xml` (app/domains/sitemaps/sitemaps.server.ts).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { shopsSitemapJson } from "~/domains/sitemaps/sitemaps.server";

export const loader = ({ request }: LoaderFunctionArgs) => shopsSitemapJson(new URL(request.url));
