// Analytics events of the hosted dialog for the shop that opened it
// (`POST /api/v1/analytics/track` with the dialog's widget token, which names
// the shop's partner). Only while the shop page says its visitor allowed
// analytics (docs/privacy.md); counts per day and event, no identifier.
import { call } from "./client";
import { consent, type Context } from "./save-dialog/context";

export function track(c: Context, event: string): void {
  if (!consent.analytics || !c.claims.partnerId) return;
  // A lost event costs a count, never the shopper's save.
  call("/analytics/track", { body: { partnerId: c.claims.partnerId, event }, widgetToken: c.token }).catch(() => undefined);
}
