// The share page `/{lang}/list/{token}` (SPEC 4.3): a public list as a
// gift-giver sees it, built from the same reads as
// `GET /hosted/public/lists/{token}` and `/items`, with the same list_view
// metering, and the owner's spoiler protection: the signed-in owner does not
// see what was bought unless they ask to (`?reveal=1`).
import { isHttpUrl, safeImageUrl } from "~/lib/api/schemas";
import { listViewer } from "~/domains/metering/list-viewer.server";
import { signedInUser } from "~/domains/identity/site-session.server";
import { linkPreview, type LinkPreview } from "~/domains/previews/link-preview.server";
import { describePublicList, publicList } from "./lists.server";
import { readListItems } from "./items-query.server";
import { setPurchasedPublic } from "./items.server";
import { hostedProduct } from "./serialize";
import { shareTexts, type ShareLang } from "./share-texts";
import { withShopWishRefs } from "./wish-ref.server";
import type { WithHeaders } from "~/lib/api/http";

export interface ShareItem {
  itemId: number;
  title: string;
  imageUrl: string | null;
  /** Formatted for the page's locale; null without a price. */
  price: string | null;
  priority: number | null;
  productUrl: string | null;
  /** null while the owner's spoiler protection hides it. */
  purchased: boolean | null;
}

export interface SharePage {
  lang: ShareLang;
  token: string;
  list: { name: string; description: string; ownerName: string; ownerAvatar: string | null; occasionTitle: string; itemCount: number };
  items: ShareItem[];
  /** For the owner only: purchased marks hidden (default) or revealed on request; null for everyone else. */
  spoiler: "hidden" | "revealed" | null;
  preview: LinkPreview;
}

// Building an Intl.NumberFormat costs far more than using one: one per locale and currency.
const formats = new Map<string, { format: Intl.NumberFormat; digits: number } | null>();
function currencyFormat(locale: string, currency: string) {
  const key = `${locale}|${currency}`;
  if (!formats.has(key)) {
    let entry: { format: Intl.NumberFormat; digits: number } | null = null;
    try {
      const format = new Intl.NumberFormat(locale, currency ? { style: "currency", currency } : { minimumFractionDigits: 2 });
      entry = { format, digits: currency ? (format.resolvedOptions().maximumFractionDigits ?? 2) : 2 };
    } catch {
      entry = null; // not an ISO 4217 code
    }
    if (formats.size < 1000) formats.set(key, entry);
    return entry;
  }
  return formats.get(key)!;
}

/** `Intl.NumberFormat` for the page's locale; an unknown currency code shows as plain number plus code. */
export function formatPrice(minor: number | null, currency: string | null, lang: ShareLang): string | null {
  if (minor == null) return null;
  const entry = currencyFormat(shareTexts(lang).locale, currency ?? "");
  if (!entry) return `${(minor / 100).toFixed(2)} ${currency}`;
  return entry.format.format(minor / 10 ** entry.digits);
}

/**
 * The page's data plus the viewer cookie to set (first view). Throws the
 * public routes' 404 `not_found` for private and unknown lists.
 */
export async function sharePage(args: {
  request: WithHeaders;
  context: unknown;
  token: string | undefined;
  lang: ShareLang;
  reveal: boolean;
}): Promise<{ page: SharePage; setCookie: string | null }> {
  const list = await publicList(args.token);
  const userId = await signedInUser(args.request);
  const viewer = await listViewer({ request: args.request, context: args.context, userId });
  const locale = { lang: args.lang };
  const [{ list: detail }, rows] = await Promise.all([describePublicList(list, locale, viewer), readListItems(list.id)]);
  const products = rows.map((row) => hostedProduct(row, locale));
  const isOwner = userId !== null && userId === list.ownerId;
  const hideMarks = isOwner && !args.reveal;
  const page: SharePage = {
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
    // Links into a shop with the app carry the item's reference: its order confirms the purchase.
    items: await withShopWishRefs(products.map((p) => ({
      itemId: p.item_id,
      title: p.title,
      imageUrl: p.imageUrl,
      price: formatPrice(p.price_minor, p.currency, args.lang),
      priority: p.priority,
      productUrl: p.affiliateUrl && isHttpUrl(p.affiliateUrl) ? p.affiliateUrl : null,
      purchased: hideMarks ? null : p.purchased,
    }))),
    spoiler: isOwner ? (hideMarks ? "hidden" : "revealed") : null,
    preview: await linkPreview(detail, products.map((p) => p.imageUrl), args.lang),
  };
  return { page, setCookie: viewer?.setCookie ?? null };
}

/** The page's purchased toggle: the public PUT route's rule (anyone with the link of a public list). */
export async function markPurchasedFromPage(token: string | undefined, itemId: string | undefined, purchased: boolean) {
  return setPurchasedPublic(token, itemId, { purchased });
}
