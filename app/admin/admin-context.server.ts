// What every /app loader and action gets from requireAdmin (session.server.ts):
// Shopify's admin objects and our shop row, or the local preview's stand-ins
// for them (preview.server.ts). Its own module, so both can name it.
import { db } from "~/db.server";
import type { Shopify } from "~/shopify.server";

export type AdminAuth = Awaited<ReturnType<Shopify["authenticate"]["admin"]>>;

export function findAdminShop(domain: string) {
  return db.platformShop.findUnique({ where: { domain }, include: { partner: true } });
}

export interface AdminContext {
  admin: AdminAuth["admin"];
  billing: AdminAuth["billing"];
  session: AdminAuth["session"];
  /** Our PlatformShop row for the authenticated shop (provisioned, active, subscription synced). */
  shop: NonNullable<Awaited<ReturnType<typeof findAdminShop>>>;
  partnerId: number;
  /** The local admin preview (demo shop, no Shopify behind it): the page says so. */
  preview: boolean;
}

