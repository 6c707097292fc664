// `/sitemap-pages.xml`: public share pages (app/domains/sitemaps/sitemaps.server.ts).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { pagesSitemap } from "~/domains/sitemaps/sitemaps.server";

export const loader = ({ request }: LoaderFunctionArgs) => pagesSitemap(new URL(request.url));
