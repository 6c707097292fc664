import { z } from "zod";
import { marketParam } from "./schemas";

function isDay(v: string): boolean {
  const t = Date.parse(`${v}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(t) && new Date(t).toISOString().startsWith(v);
}

export const occasionQuery = z.object({
  date: z.string().refine(isDay, "must be a date YYYY-MM-DD").optional().describe("Reference day (default: today, UTC)"),
  market: marketParam,
  lang: z.enum(["de", "en"]).optional(),
});
