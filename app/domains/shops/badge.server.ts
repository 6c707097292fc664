// The branding badge (SPEC 8.1): shown by default, and switched off only on a
// paid plan. Its state lives in the shop metafield the theme app extension
// reads (`badge`), so there is one truth for the storefront; this module is
// where the plan rule is enforced, and a downgrade to Free puts it back on
// (subscription.server.ts).
import { forbidden } from "~/lib/api/errors";
import { getPartner } from "~/domains/partners/partners.server";
import { getPlan } from "~/domains/plans/plans";
import type { AdminGraphql } from "./admin-graphql.server";
import { fetchShopInfo, writeShopMetafields } from "./provisioning.server";

export interface BadgeState {
  shown: boolean;
  /** Whether the partner's plan allows switching it off. */
  canHide: boolean;
}

export async function brandingBadge(graphql: AdminGraphql, partnerId: number): Promise<BadgeState> {
  const [info, partner] = await Promise.all([fetchShopInfo(graphql), getPartner(partnerId)]);
  const canHide = getPlan(partner.plan)?.canHideBadge ?? false;
  // A stored "false" from an earlier paid plan does not count on Free.
  return { shown: !(canHide && info.badge?.value === "false"), canHide };
}

/** Shows or hides the badge; hiding on a plan that does not allow it is 403 `plan_required`. */
export async function setBrandingBadge(graphql: AdminGraphql, partnerId: number, shown: boolean): Promise<BadgeState> {
  const partner = await getPartner(partnerId);
  const plan = getPlan(partner.plan);
  const canHide = plan?.canHideBadge ?? false;
  if (!shown && !canHide) {
    throw forbidden("plan_required", "The branding badge can be switched off on paid plans only", { plan: partner.plan });
  }
  const info = await fetchShopInfo(graphql);
  await writeShopMetafields(graphql, info.id, { badge: shown });
  return { shown, canHide };
}
