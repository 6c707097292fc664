// Row locks for the membership transactions (raw Prisma SQL): a no-op update takes the row's write lock on
// PostgreSQL (SQLite's transaction holds the database's), so concurrent changes to one user or partner queue.
import type { Prisma } from "~/db.server";

export const lockUserRow = (tx: Prisma.TransactionClient, userId: string) => tx.$executeRaw`UPDATE "User" SET "updatedAt" = "updatedAt" WHERE "id" = ${userId}`;

export const lockPartnerRow = (tx: Prisma.TransactionClient, partnerId: number) => tx.$executeRaw`UPDATE "Partner" SET "name" = "name" WHERE "id" = ${partnerId}`;
