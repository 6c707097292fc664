// The share page `/{lang}/list/{token}` (SPEC 4.3): a public list as a
// gift-giver sees it, built from the same reads as
// `GET /hosted/public/lists/{token}` and `/items`, with the same list_view
// metering, and the owner's spoiler protection: the signed-in owner does not
// see what was bought unless they ask to (`?reveal=1`). Each item's primary
// action is buying it at its shop; links into a shop with the app installed
// carry the item's signed reference, which that shop's orders/create webhook
// reads back from the order's landing URL (wish-ref.server.ts). The page's
// link preview, accent, HTML and HTTP side are app/pages/share/.
import { formatMoney } from "~/lib/money";
import { MAX_URL_LENGTH, safeImageUrl } from "~/lib/api/schemas";
import { newestBasketColor } from "~/domains/baskets/baskets.sql.server";
import { listViewer, type ViewerSignals } from "~/domains/metering/list-viewer.server";
import { signedInUser } from "~/domains/identity/site-session.server";
import { recordListView, type ListViewer } from "~/domains/metering/actions.server";
import { analyticsPageTokenOrNull } from "~/domains/analytics/page-token.server";
import { describePublicList, publicList } from "./lists.server";
import { readListItems } from "./items.sql.server";
import { setPurchasedPublic } from "./items.server";
import { hostedProduct } from "./serialize";
import { localeOf, type Lang } from "~/lib/lang";
import { installedShopsOf, wishRefSigner, withWishRef, type InstalledShop } from "./wish-ref.server";
import { cacheKeys } from "~/domains/cdn/purge.server";

/**
 * Priorities run from 1 to 4 (SPEC 8.4), 1 being the highest (the list's
 * "first priority"); items of priority 1 are marked "most wanted".
 */
export const MOST_WANTED_PRIORITY = 1;

export interface ShareItem {
  itemId: number;
  title: string;
  imageUrl: string | null;
  /** Formatted for the page's locale; null without a price. */
  price: string | null;
  mostWanted: boolean;
  /** The product page, with the item's signed reference when its shop has the app; null: nothing to buy online. */
  buyUrl: string | null;
  /** Where it is bought: the installed shop's name, else the link's host without `www.`. */
  shopName: string | null;
  /** null while the owner's spoiler protection hides it. */
  purchased: boolean | null;
}

/** The page's data; app/pages/share/ adds its link preview and the shop's accent, and writes it. */
export interface SharePageData {
  lang: Lang;
  token: string;
  list: { name: string; description: string; ownerName: string; ownerAvatar: string | null; occasionTitle: string; itemCount: number };
  items: ShareItem[];
  /** For the owner only: purchased marks hidden (default) or revealed on request; null for everyone else. */
  spoiler: "hidden" | "revealed" | null;
  /** The shop's basket colour when every item comes from one partner with a basket configuration; null: the default accent. */
  basketColor: string | null;
  /** The credential the page's analytics events carry (null when it could not be signed). */
  analyticsToken: string | null;
  /**
   * Whether the page is the same for everyone with the link (a shared cache may keep it) and
   * its view is counted by the page's beacon (recordSharePageView); false for a signed-in
   * visitor, whose view was counted while the page was made.
   */
  shareable: boolean;
  /** What the page shows, as CDN cache keys (domains/cdn/purge.server.ts). */
  cacheKeys: string[];
}

/** A price as the page's language writes it (~/lib/money); null when there is none. */
export function formatPrice(minor: number | null, currency: string | null, lang: Lang): string | null {
  return minor == null ? null : formatMoney(minor, currency, localeOf(lang));
}

/** The host of an absolute http(s) URL (isHttpUrl's rule, one parse); null for anything else, which gets no link. */
function httpHost(url: string | null): string | null {
  if (!url || url.length > MAX_URL_LENGTH || !/^https?:\/\//i.test(url)) return null;
  try {
    const parsed = new URL(url);
    return (parsed.protocol === "http:" || parsed.protocol === "https:") && parsed.hostname !== "" ? parsed.hostname : null;
  } catch {
    return null;
  }
}

/** The single partner every item comes from (its supplier, else the installed shop its link leads to), or null. */
function onePartner(items: { supplier: number | null; shop: InstalledShop | null }[]): number | null {
  let partner: number | null = null;
  for (const item of items) {
    const id = item.supplier ?? item.shop?.partnerId ?? null;
    if (id === null || (partner !== null && id !== partner)) return null;
    partner = id;
  }
  return partner;
}

/**
 * The page's data plus the viewer id to hand out (first view). `siteToken`
 * is the visitor's site session, if any (the owner's spoiler protection).
 * Throws the public routes' 404 `not_found` for private and unknown lists.
 *
 * A page for a visitor who is not signed in is the same for everyone, so a
 * CDN may serve it: its list_view is not counted here but by the page's
 * beacon (recordSharePageView), which reaches the origin however the page
 * came. A signed-in visitor's page (the owner's spoiler protection) is made
 * for them alone, carries no beacon, and counts here.
 */
export async function sharePage(args: {
  visitor: ViewerSignals;
  siteToken: string | null;
  token: string | undefined;
  lang: Lang;
  reveal: boolean;
}): Promise<{ page: SharePageData; newViewerId: ListViewer["newViewerId"] }> {
  const list = await publicList(args.token);
  const userId = await signedInUser(args.siteToken);
  const shareable = userId === null;
  const viewer = shareable ? null : await listViewer({ ...args.visitor, userId });
  const locale = { lang: args.lang };
  const [{ list: detail }, rows] = await Promise.all([describePublicList(list, locale, viewer), readListItems(list.id)]);
  const isOwner = userId !== null && userId === list.ownerId;
  const hideMarks = isOwner && !args.reveal;

  const hosts = new Set<string>();
  const entries = rows.map((row) => {
    const p = hostedProduct(row, locale);
    const host = httpHost(p.affiliateUrl);
    if (host) hosts.add(host);
    return { p, host, supplier: row.supplierPartnerId, productId: row.product.id, shop: null as InstalledShop | null };
  });
  const shops = await installedShopsOf(hosts);
  for (const e of entries) if (e.host) e.shop = shops.get(e.host) ?? null;
  const sign = shops.size > 0 ? await wishRefSigner("share_page") : null;
  const partnerId = onePartner(entries);
  const basket = partnerId === null ? undefined : await newestBasketColor(partnerId);

  const page: SharePageData = {
    lang: args.lang,
    token: detail.id,
    list: {
      name: detail.name,
      description: detail.description,
      ownerName: detail.owner_username,
      ownerAvatar: safeImageUrl(detail.owner_avatar),
      occasionTitle: detail.occasion_title,
      itemCount: detail.productCount,
    },
    items: entries.map(({ p, host, shop }) => ({
      itemId: p.item_id,
      title: p.title,
      imageUrl: p.imageUrl,
      price: formatPrice(p.price_minor, p.currency, args.lang),
      mostWanted: p.priority === MOST_WANTED_PRIORITY,
      // Links into a shop with the app carry the item's reference: its order confirms the purchase.
      buyUrl: host ? (shop && sign ? withWishRef(p.affiliateUrl!, sign(p.item_id)) : p.affiliateUrl) : null,
      shopName: shop?.name?.trim() || (host ? host.replace(/^www\./, "") : null),
      purchased: hideMarks ? null : p.purchased,
    })),
    spoiler: isOwner ? (hideMarks ? "hidden" : "revealed") : null,
    basketColor: basket?.primaryColor ?? null,
    // The list's one partner is the page's context: events from this page count for it alone.
    analyticsToken: await analyticsPageTokenOrNull(partnerId),
    shareable,
    cacheKeys: cacheKeys(list.id, entries.map((e) => e.productId), partnerId),
  };
  return { page, newViewerId: viewer?.newViewerId ?? null };
}

/**
 * The view beacon of a shareable page (`/{lang}/list/{token}/view`): one
 * list_view under SPEC 8's rule for the visitor it names (listViewer), and
 * the viewer id to hand out. 404 `not_found` for private and unknown lists.
 */
export async function recordSharePageView(args: { visitor: ViewerSignals; siteToken: string | null; token: string | undefined }) {
  const list = await publicList(args.token);
  const userId = await signedInUser(args.siteToken);
  const viewer = await listViewer({ ...args.visitor, userId });
  await recordListView(list.id, viewer);
  return { newViewerId: viewer?.newViewerId ?? null };
}

/** The page's purchased toggle: the public PUT route's rule (anyone with the link of a public list). */
export async function markPurchasedFromPage(token: string | undefined, itemId: string | undefined, purchased: boolean) {
  return setPurchasedPublic(token, itemId, { purchased });
}
