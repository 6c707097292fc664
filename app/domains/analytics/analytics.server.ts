// Analytics events the service's own pages (share pages, the basket drawer,
// the save dialog) report for a partner (SPEC 7.4), and the per-day counts
// the merchant admin charts.
//
// An event is recorded only for the partner whose credential its page holds:
// the page token a page of that partner's context carries (page-token.server.ts:
// a share page names its list's partner, the drawer its basket's) or the
// partner's widget token (`X-Widget-Token`, which the dialog and a shop's page
// hold). Naming another partner (or another key than the widget token's) is
// 403 `forbidden_key_mismatch`; no credential, or one of ours from another
// origin, is 403 `forbidden`. Each client (address unit) has
// ANALYTICS_EVENTS_PER_MINUTE and ANALYTICS_EVENTS_PER_DAY recorded events;
// beyond them an event is accepted and dropped (SPEC 8.2: never 429).
import { db } from "~/db.server";
import { appOrigin, env } from "~/env.server";
import { forbidden, notFound } from "~/lib/api/errors";
import { verifyWidgetToken } from "~/domains/widget/token.server";
import { exec } from "~/db/sql.server";
import { claimUse } from "~/domains/metering/actions.sql.server";
import { analyticsTokenPartner } from "./page-token.server";
import { countAnalyticsDay } from "./analytics.sql.server";

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

const notOwnPage = () => forbidden("forbidden", "Analytics events are accepted from the service's own pages only, with the partner's page or widget token");
const mismatch = () => forbidden("forbidden_key_mismatch", "The page's token was issued for another partner or key");

export interface TrackInput {
  partnerId: number;
  apiKeyId?: number;
  event: string;
  properties?: Record<string, unknown>;
}

/** What the event's page holds and where it comes from. */
export interface TrackContext {
  origin: string | null;
  pageToken: string | null;
  widgetToken: string | null;
  /** The client's address unit (IPv4, or IPv6 /64). */
  address: string;
}

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

export async function trackEvent(input: TrackInput, context: TrackContext, now = new Date()) {
  if (!context.origin || !allowedOrigins.has(context.origin)) throw notOwnPage();
  const pagePartner = await analyticsTokenPartner(context.pageToken);
  const widget = context.widgetToken ? await verifyWidgetToken(context.widgetToken) : null;
  if (context.widgetToken && !widget) throw forbidden("forbidden", "Invalid X-Widget-Token");
  if (pagePartner === null && !widget) throw notOwnPage();
  if (pagePartner !== null && pagePartner !== input.partnerId) throw mismatch();
  let apiKeyId = input.apiKeyId ?? null;
  if (widget && (widget.partnerId !== input.partnerId || (apiKeyId !== null && widget.apiKeyId !== apiKeyId))) throw mismatch();

  const partner = await db.partner.findUnique({ where: { id: input.partnerId }, select: { id: true } });
  if (!partner) throw notFound("not_found", `No partner with id ${input.partnerId}`);
  if (apiKeyId !== null) {
    const key = await db.apiKey.findUnique({ where: { id: apiKeyId }, select: { partnerId: true } });
    if (!key) throw notFound("api_key_not_found", `No API key with id ${apiKeyId}`);
    if (key.partnerId !== input.partnerId) throw forbidden("forbidden_key_not_owned", "This API key belongs to another partner");
  }
  if (widget) apiKeyId = widget.apiKeyId;

  const day = dayOf(now);
  const minute = Math.floor(now.getTime() / 60_000);
  // The per-client bound: atomic counted keys (UsageDedup, pruned with the usage keys after two days).
  const allowed =
    (await exec(claimUse(`analytics:m:${context.address}:${minute}`, input.partnerId, env.ANALYTICS_EVENTS_PER_MINUTE))) > 0 &&
    (await exec(claimUse(`analytics:d:${context.address}:${day}`, input.partnerId, env.ANALYTICS_EVENTS_PER_DAY))) > 0;
  if (!allowed) return { ok: true as const, id: 0, dropped: true as const };

  const [row] = await db.$transaction([
    db.analyticsEvent.create({
      data: { partnerId: input.partnerId, apiKeyId, event: input.event, properties: (input.properties ?? undefined) as never, createdAt: now },
      select: { id: true },
    }),
    countAnalyticsDay(input.partnerId, day, input.event),
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

