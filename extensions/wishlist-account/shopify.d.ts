import "@shopify/ui-extensions";

// The `shopify` global of the page target, typed for the module (Shopify's template does the same).
//@ts-ignore
declare module "./src/WishlistPage.tsx" {
  const shopify: import("@shopify/ui-extensions/customer-account.page.render").Api;
  const globalThis: { shopify: typeof shopify };
}
