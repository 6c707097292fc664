// Source names as the admin and the CSV export show them (amounts: ~/lib/money).

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
