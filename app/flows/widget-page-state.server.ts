// `POST /widget/init` with `saved: true`: the page's shopper credential and the addresses of its
// saved products ride along with the widget token, so a shop page learns its hearts' state in one
// request instead of three (init, session-restore, saved-products; docs/storefront.md "Saved state
// from one request"). The same grant and the same partner filter as those two routes.
import { savedUrlsForWidget } from "~/domains/lists/widget-saves.server";
import { liveGrant, shopperSessionOf } from "~/domains/widget/session-store.server";

export async function pageState(partnerId: number, origin: string, sid: string) {
  const grant = await liveGrant(partnerId, sid);
  if (!grant) return { session: null, saved: [] };
  const [session, saved] = await Promise.all([shopperSessionOf(grant, partnerId), savedUrlsForWidget(grant.userId, { partnerId, origin })]);
  return { session, saved };
}
