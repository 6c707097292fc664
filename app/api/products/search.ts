// GET /products/search is the same search as GET /discover/search, under the retailer catalogue's prefix (it carries rate-limit headers, SPEC 8.3).
export { loader, action } from "~/api/discover/search";
