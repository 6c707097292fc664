// "My lists" (`/{lang}/lists`) as the page shows it: the lists domain's data
// (domains/lists/my-lists.server.ts) with prices and dates written in the
// page's language. The page itself is app/hosted-pages/my-lists.tsx.
import type { Identity } from "~/domains/identity/identity.server";
import { myListsPage, type MyItem, type MyList, type MyListsPage } from "~/flows/my-lists.server";
import { formatMoney } from "~/lib/money";
import { localeOf, type Lang } from "~/i18n/lang";

export interface MyItemView extends Omit<MyItem, "priceMinor" | "currency"> {
  /** Formatted for the page's locale; null without a price. */
  price: string | null;
  /** The added date in the page's language. */
  addedOn: string;
}

export interface MyListView extends Omit<MyList, "items"> {
  items: MyItemView[];
}

export interface MyListsView extends Omit<MyListsPage, "owned" | "shared"> {
  owned: MyListView[];
  shared: MyListView[];
}

// Building an Intl.DateTimeFormat costs far more than using one.
const dateFormats = new Map<string, Intl.DateTimeFormat>();
function formatDate(iso: string, lang: Lang): string {
  const locale = localeOf(lang);
  let format = dateFormats.get(locale);
  if (!format) {
    // UTC: the server cannot know the shopper's time zone, and the day is what matters.
    format = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
    dateFormats.set(locale, format);
  }
  return format.format(new Date(iso));
}

function listView(list: MyList, lang: Lang): MyListView {
  return {
    ...list,
    items: list.items.map(({ priceMinor, currency, ...item }) => ({
      ...item,
      price: priceMinor == null ? null : formatMoney(priceMinor, currency, localeOf(lang)),
      addedOn: formatDate(item.addedAt, lang),
    })),
  };
}

/** The page for the shopper of `identity`; `reveal` shows purchased marks despite spoiler protection. */
export async function myListsView(identity: Identity, lang: Lang, reveal: boolean): Promise<MyListsView> {
  const page = await myListsPage(identity, lang, reveal);
  return { ...page, owned: page.owned.map((l) => listView(l, lang)), shared: page.shared.map((l) => listView(l, lang)) };
}
