// The Shopify embedded app. It switches on when SHOPIFY_API_KEY and
// SHOPIFY_API_SECRET are set; without them the public API and pages still
// run and `shopify` is null. Installation, billing and the admin pages build
// on this module.
import "@shopify/shopify-app-remix/adapters/node";
import { ApiVersion, AppDistribution, shopifyApp } from "@shopify/shopify-app-remix/server";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import { db } from "~/db.server";
import { env } from "~/env.server";

function createShopify() {
  if (!env.SHOPIFY_API_KEY || !env.SHOPIFY_API_SECRET) return null;
  return shopifyApp({
    apiKey: env.SHOPIFY_API_KEY,
    apiSecretKey: env.SHOPIFY_API_SECRET,
    apiVersion: ApiVersion.October25,
    scopes: env.SCOPES.split(",").map((s) => s.trim()).filter(Boolean),
    appUrl: env.APP_URL,
    authPathPrefix: "/auth",
    // Both generated Prisma clients expose the `session` model the storage needs.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    sessionStorage: new PrismaSessionStorage(db as any),
    distribution: AppDistribution.AppStore,
    ...(env.SHOP_CUSTOM_DOMAIN ? { customShopDomains: [env.SHOP_CUSTOM_DOMAIN] } : {}),
  });
}

/** Null until SHOPIFY_API_KEY and SHOPIFY_API_SECRET are set. */
export const shopify = createShopify();
