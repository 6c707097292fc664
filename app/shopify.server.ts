// The Shopify embedded app. It switches on when SHOPIFY_API_KEY and
// SHOPIFY_API_SECRET are set; without them the public API and pages still
// run, `shopify` is null and /app, /auth and the Shopify webhooks answer a
// 503 page (app/admin/shopify-off.ts).
import "@shopify/shopify-app-remix/adapters/node";
import { ApiVersion, AppDistribution, BillingInterval, LogSeverity, shopifyApp } from "@shopify/shopify-app-remix/server";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import { db } from "~/db.server";
import { billingIsTest, env } from "~/env.server";
import { BILLING_PLANS } from "~/domains/plans/billing-plans";
import { provisionShop } from "~/domains/shops/provisioning.server";

export const SHOPIFY_API_VERSION = ApiVersion.January26;

/** Whether Billing API charges are test charges (SHOPIFY_BILLING_TEST). */
export const BILLING_IS_TEST = billingIsTest(env);

const billing = Object.fromEntries(
  BILLING_PLANS.map((p) => [
    p.name,
    {
      trialDays: p.trialDays,
      lineItems: [
        {
          amount: p.amountUsd,
          currencyCode: "USD",
          interval: p.interval === "monthly" ? BillingInterval.Every30Days : BillingInterval.Annual,
        },
      ],
    },
  ]),
) as Record<string, { trialDays: number; lineItems: [{ amount: number; currencyCode: string; interval: BillingInterval.Every30Days | BillingInterval.Annual }] }>;

const LOG_SEVERITY = {
  debug: LogSeverity.Debug,
  info: LogSeverity.Info,
  warn: LogSeverity.Warning,
  error: LogSeverity.Error,
} as const;

function createShopify() {
  if (!env.SHOPIFY_API_KEY || !env.SHOPIFY_API_SECRET) return null;
  return shopifyApp({
    apiKey: env.SHOPIFY_API_KEY,
    apiSecretKey: env.SHOPIFY_API_SECRET,
    apiVersion: SHOPIFY_API_VERSION,
    scopes: env.SCOPES.split(",").map((s) => s.trim()).filter(Boolean),
    appUrl: env.APP_URL,
    authPathPrefix: "/auth",
    // Both generated Prisma clients expose the `session` model the storage needs.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    sessionStorage: new PrismaSessionStorage(db as any),
    distribution: AppDistribution.AppStore,
    // The library logs at the app's LOG_LEVEL.
    logger: { level: LOG_SEVERITY[env.LOG_LEVEL] },
    future: { unstable_newEmbeddedAuthStrategy: true, expiringOfflineAccessTokens: true },
    billing,
    hooks: {
      // Runs whenever no valid offline session exists (install, reinstall,
      // expired token), so provisioning is idempotent.
      afterAuth: async ({ session, admin }) => {
        await provisionShop({ shopDomain: session.shop, graphql: admin.graphql });
      },
    },
    ...(env.SHOP_CUSTOM_DOMAIN ? { customShopDomains: [env.SHOP_CUSTOM_DOMAIN] } : {}),
  });
}

/** Null until SHOPIFY_API_KEY and SHOPIFY_API_SECRET are set. */
export const shopify = createShopify();
export type Shopify = NonNullable<typeof shopify>;

/** A shop's Admin API through its offline session (background jobs, the join preview); null while Shopify is off. */
export const offlineAdmin = shopify
  ? async (shopDomain: string) => {
      const { admin } = await shopify!.unauthenticated.admin(shopDomain);
      return admin.graphql;
    }
  : null;
