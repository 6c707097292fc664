// Analytics events the service's own pages (hosted dialog, SDK pages) report
// for a partner (SPEC 7.4), and the per-day counts the merchant admin charts.
// An event is accepted only with the page token those pages carry
// (page-token.server.ts) and from one of the service's origins.
//
// Key checks, in order: an `apiKeyId` must exist (404 `api_key_not_found`)
// and belong to `partnerId` (403 `forbidden_key_not_owned`). When the page
// also sends its widget token (`X-Widget-Token`), the token is the context
// the event happened in: its partner and key must be the ones the body names
// (403 `forbidden_key_mismatch`), so one shop's page cannot report events
// for another shop's key.
import { db } from "~/db.server";
import { appOrigin, env } from "~/env.server";
import { forbidden, notFound } from "~/lib/api/errors";
import { verifyWidgetToken } from "~/domains/widget/token.server";
import { isAnalyticsPageToken } from "./page-token.server";

const allowedOrigins = new Set(
  [appOrigin, ...(env.ANALYTICS_ALLOWED_ORIGINS ?? "").split(",")]
    .map((o) => o.trim())
    .filter(Boolean)
    .map((o) => {
      try {
        return new URL(o).origin;
      } catch {
        return o;
      }
    }),
);

/**
 * 403 `forbidden` unless the request comes from one of the service's own
 * pages: the page token they carry, sent from one of the service's origins.
 */
export async function requireOwnPage(origin: string | null, pageToken: string | null): Promise<void> {
  if (!origin || !allowedOrigins.has(origin) || !(await isAnalyticsPageToken(pageToken))) {
    throw forbidden("forbidden", "Analytics events are accepted from the service's own pages only (X-Analytics-Token)");
  }
}

export interface TrackInput {
  partnerId: number;
  apiKeyId?: number;
  event: string;
  properties?: Record<string, unknown>;
}

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

export async function trackEvent(input: TrackInput, widgetToken: string | null) {
  const partner = await db.partner.findUnique({ where: { id: input.partnerId }, select: { id: true } });
  if (!partner) throw notFound("not_found", `No partner with id ${input.partnerId}`);
  let apiKeyId = input.apiKeyId ?? null;
  if (apiKeyId !== null) {
    const key = await db.apiKey.findUnique({ where: { id: apiKeyId }, select: { partnerId: true } });
    if (!key) throw notFound("api_key_not_found", `No API key with id ${apiKeyId}`);
    if (key.partnerId !== input.partnerId) throw forbidden("forbidden_key_not_owned", "This API key belongs to another partner");
  }
  if (widgetToken) {
    const claims = await verifyWidgetToken(widgetToken);
    if (!claims) throw forbidden("forbidden", "Invalid X-Widget-Token");
    if (claims.partnerId !== input.partnerId || (apiKeyId !== null && claims.apiKeyId !== apiKeyId)) {
      throw forbidden("forbidden_key_mismatch", "The widget token was issued for another partner or key");
    }
    apiKeyId = claims.apiKeyId;
  }
  const now = new Date();
  const day = dayOf(now);
  const [row] = await db.$transaction([
    db.analyticsEvent.create({
      data: { partnerId: input.partnerId, apiKeyId, event: input.event, properties: (input.properties ?? undefined) as never, createdAt: now },
      select: { id: true },
    }),
    db.$executeRaw`INSERT INTO "AnalyticsDay" ("partnerId", "day", "event", "count") VALUES (${input.partnerId}, ${day}, ${input.event}, 1)
      ON CONFLICT ("partnerId", "day", "event") DO UPDATE SET "count" = "AnalyticsDay"."count" + 1`,
  ]);
  return { ok: true as const, id: row.id };
}

/** Counts per UTC day and event over the last `days` days (today included), every day listed. */
export async function partnerAnalytics(partnerId: number, days: number) {
  const to = new Date();
  const from = new Date(to.getTime() - (days - 1) * 86_400_000);
  const rows = await db.analyticsDay.findMany({
    where: { partnerId, day: { gte: dayOf(from), lte: dayOf(to) } },
    orderBy: [{ day: "asc" }, { event: "asc" }],
  });
  const events = [...new Set(rows.map((r) => r.event))].sort();
  const byDay = new Map<string, Record<string, number>>();
  const totals: Record<string, number> = {};
  for (const r of rows) {
    const counts = byDay.get(r.day) ?? {};
    counts[r.event] = r.count;
    byDay.set(r.day, counts);
    totals[r.event] = (totals[r.event] ?? 0) + r.count;
  }
  const series = [];
  for (let i = 0; i < days; i++) {
    const date = dayOf(new Date(from.getTime() + i * 86_400_000));
    series.push({ date, counts: byDay.get(date) ?? {} });
  }
  return { partner_id: partnerId, days, from: dayOf(from), to: dayOf(to), events, series, totals };
}

