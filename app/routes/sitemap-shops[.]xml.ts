// `/sitemap-shops.xml`: published shop pages (app/domains/sitemaps/sitemaps.server.ts).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { shopsSitemap } from "~/domains/sitemaps/sitemaps.server";

export const loader = ({ request }: LoaderFunctionArgs) => shopsSitemap(new URL(request.url));
