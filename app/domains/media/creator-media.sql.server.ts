// The shop row lock that serialises finalisations per shop (raw Prisma SQL; PostgreSQL only: SQLite
// transactions take the write lock up front).
import type { Prisma } from "~/db.server";

export const lockShopRow = (tx: Prisma.TransactionClient, shopId: number) => tx.$queryRaw`SELECT id FROM "PlatformShop" WHERE id = ${shopId} FOR UPDATE`;
