// The caller's locale from the query string (`?market=de-DE&lang=de`).
import type { Locale } from "~/domains/products/localization";

export function parseLocale(url: URL): Locale {
  const market = url.searchParams.get("market")?.trim() || undefined;
  const lang = url.searchParams.get("lang")?.trim().toLowerCase() || undefined;
  return { market, lang };
}
