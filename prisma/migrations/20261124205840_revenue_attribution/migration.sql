-- CreateTable
CREATE TABLE "AttributedOrder" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "shopId" INTEGER NOT NULL,
    "orderId" TEXT NOT NULL,
    "customerId" TEXT,
    "currency" TEXT NOT NULL,
    "revenueMinor" INTEGER NOT NULL,
    "orderedAt" DATETIME NOT NULL,
    "day" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "AttributedOrder_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "PlatformShop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AttributedLine" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "attributedOrderId" INTEGER NOT NULL,
    "shopId" INTEGER NOT NULL,
    "lineId" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "listItemId" INTEGER,
    "shopifyProductId" TEXT,
    "productKey" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "revenueMinor" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    CONSTRAINT "AttributedLine_attributedOrderId_fkey" FOREIGN KEY ("attributedOrderId") REFERENCES "AttributedOrder" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "AttributedLine_listItemId_fkey" FOREIGN KEY ("listItemId") REFERENCES "ListItem" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_PlatformShop" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "partnerId" INTEGER NOT NULL,
    "domain" TEXT NOT NULL,
    "name" TEXT,
    "primaryDomain" TEXT,
    "email" TEXT,
    "currency" TEXT,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "installedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "uninstalledAt" DATETIME,
    "trialEndsAt" DATETIME NOT NULL,
    "subscriptionStatus" TEXT NOT NULL DEFAULT 'trialing',
    "plan" TEXT,
    "subscriptionId" TEXT,
    "updatedAt" DATETIME NOT NULL,
    "handle" TEXT,
    "published" BOOLEAN NOT NULL DEFAULT false,
    "description" TEXT NOT NULL DEFAULT '',
    "attributionWindowDays" INTEGER NOT NULL DEFAULT 30,
    CONSTRAINT "PlatformShop_partnerId_fkey" FOREIGN KEY ("partnerId") REFERENCES "Partner" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_PlatformShop" ("active", "currency", "description", "domain", "email", "handle", "id", "installedAt", "name", "partnerId", "plan", "primaryDomain", "published", "subscriptionId", "subscriptionStatus", "trialEndsAt", "uninstalledAt", "updatedAt") SELECT "active", "currency", "description", "domain", "email", "handle", "id", "installedAt", "name", "partnerId", "plan", "primaryDomain", "published", "subscriptionId", "subscriptionStatus", "trialEndsAt", "uninstalledAt", "updatedAt" FROM "PlatformShop";
DROP TABLE "PlatformShop";
ALTER TABLE "new_PlatformShop" RENAME TO "PlatformShop";
CREATE UNIQUE INDEX "PlatformShop_domain_key" ON "PlatformShop"("domain");
CREATE UNIQUE INDEX "PlatformShop_handle_key" ON "PlatformShop"("handle");
CREATE INDEX "PlatformShop_partnerId_idx" ON "PlatformShop"("partnerId");
CREATE INDEX "PlatformShop_primaryDomain_idx" ON "PlatformShop"("primaryDomain");
CREATE INDEX "PlatformShop_published_id_idx" ON "PlatformShop"("published", "id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "AttributedOrder_shopId_customerId_idx" ON "AttributedOrder"("shopId", "customerId");

-- CreateIndex
CREATE UNIQUE INDEX "AttributedOrder_shopId_orderId_key" ON "AttributedOrder"("shopId", "orderId");

-- CreateIndex
CREATE INDEX "AttributedLine_shopId_day_idx" ON "AttributedLine"("shopId", "day");

-- CreateIndex
CREATE INDEX "AttributedLine_listItemId_idx" ON "AttributedLine"("listItemId");

-- CreateIndex
CREATE UNIQUE INDEX "AttributedLine_attributedOrderId_lineId_key" ON "AttributedLine"("attributedOrderId", "lineId");

