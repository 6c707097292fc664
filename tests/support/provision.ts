// Arranges partners, keys and shops for a test in-process, through the same
// domain functions the CLI uses (one CLI process per record would be slow).
// Call once per test file: it points this worker's app modules at the server's database.
export async function provisioner(server: { databaseUrl: string; url: string }) {
  process.env.DATABASE_URL = server.databaseUrl;
  process.env.APP_URL = server.url;
  const partners = await import("~/domains/partners/partners.server");
  const keys = await import("~/domains/keys/keys.server");
  const shops = await import("~/domains/shops/shops.server");
  const tokens = await import("~/domains/partners/access-tokens.server");
  return {
    partner: (plan = "free", name = `Shop ${Math.random().toString(36).slice(2, 8)}`, email = "owner@shop.example") =>
      partners.createPartner({ name, email, plan }),
    /** A personal access token of the partner (`token` is shown once, as by `wish pat create`). */
    pat: (partnerId: number, name = "tooling") => tokens.createPersonalAccessToken(partnerId, { name }),
    key: (partnerId: number, opts: { env?: "test" | "live"; domains?: string[]; createdAt?: Date } = {}) =>
      keys.createApiKey(partnerId, { environment: opts.env ?? "test", allowedDomains: opts.domains, createdAt: opts.createdAt }),
    shop: (partnerId: number, opts: { domain?: string; installedAt?: Date; subscriptionStatus?: string } = {}) =>
      shops.createPlatformShop(partnerId, {
        domain: opts.domain ?? `${Math.random().toString(36).slice(2, 10)}.myshopify.com`,
        installedAt: opts.installedAt,
        subscriptionStatus: opts.subscriptionStatus,
      }),
  };
}

export const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
