import { z } from "zod";

// `page` is checked by the sitemap itself: a file past the end (or not a number) is 404 `not_found`.
export const sitemapQuery = z.object({
  page: z.string().optional().describe("File number (1…N) when the bare address is a sitemap index; absent: the bare address"),
});

export const SITEMAP_DESCRIPTION =
  "The same document as at the site root (`APP_URL/sitemap-…`), where the sitemap protocol wants it; addresses inside it (index entries, `next`) are the root ones. " +
  "At most SITEMAP_URLS_PER_FILE URLs a file; with more, the bare address lists `?page=N` files.";
