// Shapes shared by the retailer-list import routes (not a route module).
import { z } from "zod";

export const importSchema = z.object({
  id: z.number().int(),
  wishlist_id: z.string().describe("The target list's share token"),
  wishlist_db_id: z.number().int(),
  source_url: z.string(),
  provider: z.enum(["generic", "amazon"]),
  external_list_id: z.string().nullable(),
  status: z.enum(["pending", "synced", "failed"]),
  item_count: z.number().int().describe("Items the source page held at the last successful sync"),
  last_synced_at: z.string().nullable(),
  error: z.string().nullable(),
  created_at: z.string(),
});

export const syncResultSchema = z.object({
  import: importSchema,
  added: z.number().int().describe("Items added to the list by this call"),
  skipped: z.number().int().describe("Items already in the list, unreadable, or refused (paused Free-plan partner)"),
  items_found: z.number().int().describe("Distinct items the page lists"),
  items_limit: z.number().int().describe("Most items one import or sync takes from the page (IMPORT_MAX_ITEMS)"),
  items_over_limit: z.number().int().describe("Items the page lists past items_limit: not looked at, not added (0 when the whole list was read)"),
  images_not_copied: z
    .number()
    .int()
    .describe("Items saved with the page's own image address because this call's outbound fetches (IMPORT_MAX_FETCHES) were spent"),
});

export const importIdParams = z.object({ id: z.string().describe("The import's numeric id") });

export const syncErrors = { not_found: 404, sync_failed: 500, internal: 500 };
