// Amounts and source names as the admin and the CSV export show them.

/** Digits after the decimal point of a currency (JPY 0, EUR 2, KWD 3); 2 when unknown. */
export function fractionDigits(currency: string): number {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** Minor units as a plain decimal (`2490`, EUR → `24.90`), as the CSV carries them. */
export const decimalAmount = (minor: number, currency: string) => (minor / 10 ** fractionDigits(currency)).toFixed(fractionDigits(currency));

/** Minor units as money for people (`€24.90`). */
export function formatMoney(minor: number, currency: string, locale = "en-US"): string {
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency }).format(minor / 10 ** fractionDigits(currency));
  } catch {
    return `${decimalAmount(minor, currency)} ${currency}`;
  }
}

const SOURCE_LABELS: Record<string, string> = {
  share_page: "Share page",
  drawer: "Wishlist drawer",
  account_page: "Customer account page",
  wishlist_page: "Store wishlist page",
  alert_price_drop: "Alert: price drop",
  alert_back_in_stock: "Alert: back in stock",
  alert_low_stock: "Alert: low stock",
  reminder: "Reminder of saved items",
  saved: "Saved by the buyer",
};

/** A source as the admin names it; one it does not know yet shows as it is stored. */
export const sourceLabel = (source: string) => SOURCE_LABELS[source] ?? source;
