// POST /hosted/scrape-preview (no auth): product data for a URL, not saved.
import { scrapePreview } from "~/domains/products/scraper.server";
import { endpoint, route } from "~/api/endpoint.server";

export const loader = endpoint({ POST: route("none", ({ body }) => scrapePreview(body)) });
export const action = loader;
