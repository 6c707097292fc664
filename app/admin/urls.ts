// Addresses inside the Shopify admin.

/** Where a page of this app opens embedded in the shop's admin (e.g. billing's returnUrl). */
export function embeddedAppUrl(shopDomain: string, apiKey: string, path: string): string {
  const store = shopDomain.replace(/\.myshopify\.com$/, "");
  return `https://admin.shopify.com/store/${store}/apps/${apiKey}${path}`;
}
