-- CreateTable
CREATE TABLE "ProductRescrape" (
    "productId" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "host" TEXT NOT NULL,
    "market" TEXT NOT NULL DEFAULT '',
    "dueAt" DATETIME NOT NULL,
    "claimedBy" TEXT,
    "claimedUntil" DATETIME,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "gaveUpAt" DATETIME,
    "lastReadAt" DATETIME,
    "lastPriceMinor" INTEGER,
    "lastCurrency" TEXT,
    "lastAvailable" BOOLEAN,
    CONSTRAINT "ProductRescrape_productId_fkey" FOREIGN KEY ("productId") REFERENCES "Product" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RescrapeHost" (
    "host" TEXT NOT NULL PRIMARY KEY,
    "day" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    "busyBy" TEXT,
    "busyUntil" DATETIME
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_AlertSent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "dedupKey" TEXT NOT NULL,
    "shopId" INTEGER,
    "userId" TEXT NOT NULL,
    "listItemId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "priceMinor" INTEGER,
    "currency" TEXT,
    "title" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "clickKey" TEXT,
    "buyUrl" TEXT,
    "clickedAt" DATETIME
);
INSERT INTO "new_AlertSent" ("buyUrl", "clickKey", "clickedAt", "createdAt", "currency", "dedupKey", "id", "kind", "listItemId", "priceMinor", "shopId", "title", "userId") SELECT "buyUrl", "clickKey", "clickedAt", "createdAt", "currency", "dedupKey", "id", "kind", "listItemId", "priceMinor", "shopId", "title", "userId" FROM "AlertSent";
DROP TABLE "AlertSent";
ALTER TABLE "new_AlertSent" RENAME TO "AlertSent";
CREATE UNIQUE INDEX "AlertSent_dedupKey_key" ON "AlertSent"("dedupKey");
CREATE UNIQUE INDEX "AlertSent_clickKey_key" ON "AlertSent"("clickKey");
CREATE INDEX "AlertSent_shopId_id_idx" ON "AlertSent"("shopId", "id");
CREATE INDEX "AlertSent_userId_idx" ON "AlertSent"("userId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "ProductRescrape_dueAt_idx" ON "ProductRescrape"("dueAt");

-- CreateIndex
CREATE INDEX "ProductRescrape_gaveUpAt_idx" ON "ProductRescrape"("gaveUpAt");

