// A product's localizations (title, description, price per market) and the
// choice among them for the caller's market/lang, with sensible fallbacks.

export interface Localization {
  market: string;
  title: string;
  description: string;
  imageUrl: string | null;
  originalImageUrl: string | null;
  priceMinor: number | null;
  currency: string | null;
  compareAtPriceMinor?: number | null;
}

/** The requested locale: `market` (de-DE) wins, else `lang` (de). */
export interface Locale {
  market?: string;
  lang?: string;
}

const language = (market: string) => market.split(/[-_]/)[0]!.toLowerCase();

/** The language asked for: `lang`, else the market's. */
export function localeLanguage(locale: Locale): string | undefined {
  return locale.lang ?? (locale.market ? language(locale.market) : undefined);
}

/** Exact market, then same language, then the market-less entry, then any. */
export function pickLocalization<T extends { market: string }>(entries: T[], locale: Locale): T | undefined {
  if (entries.length <= 1) return entries[0];
  const wantLang = localeLanguage(locale);
  return (
    (locale.market && entries.find((e) => e.market.toLowerCase() === locale.market!.toLowerCase())) ||
    (wantLang && entries.find((e) => e.market && language(e.market) === wantLang)) ||
    entries.find((e) => e.market === "") ||
    entries[0]
  );
}

/** The price in the chosen market, else the first market that has one. */
export function pickPrice(entries: Localization[], chosen: Localization | undefined) {
  const withPrice = chosen?.priceMinor != null ? chosen : entries.find((e) => e.priceMinor != null);
  return { priceMinor: withPrice?.priceMinor ?? null, currency: withPrice?.currency ?? null };
}
