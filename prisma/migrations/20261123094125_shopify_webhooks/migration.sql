-- AlterTable
ALTER TABLE "Product" ADD COLUMN "available" BOOLEAN;

-- AlterTable
ALTER TABLE "PlatformShop" ADD COLUMN "currency" TEXT;
ALTER TABLE "PlatformShop" ADD COLUMN "email" TEXT;
ALTER TABLE "PlatformShop" ADD COLUMN "primaryDomain" TEXT;

-- CreateTable
CREATE TABLE "ProcessedWebhook" (
    "webhookId" TEXT NOT NULL PRIMARY KEY,
    "topic" TEXT NOT NULL,
    "shopDomain" TEXT NOT NULL,
    "processedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "PurchaseConfirmation" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "shopDomain" TEXT NOT NULL,
    "listItemId" INTEGER NOT NULL,
    "orderId" TEXT NOT NULL,
    "customerId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PurchaseConfirmation_listItemId_fkey" FOREIGN KEY ("listItemId") REFERENCES "ListItem" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ComplianceRequest" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "shopDomain" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "customerId" TEXT,
    "data" JSONB,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ListItem" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "wishlistId" INTEGER NOT NULL,
    "productId" INTEGER NOT NULL,
    "addedByUserId" TEXT,
    "purchased" BOOLEAN NOT NULL DEFAULT false,
    "purchasedAt" DATETIME,
    "purchaseConfirmed" BOOLEAN NOT NULL DEFAULT false,
    "priority" INTEGER,
    "market" TEXT,
    "offerId" INTEGER,
    "sourceLabel" TEXT,
    "priceOverrideMinor" INTEGER,
    "currencyOverride" TEXT,
    "checkoutMeta" JSONB,
    "variantId" TEXT,
    "ownTitle" TEXT,
    "ownDescription" TEXT,
    "ownImageUrl" TEXT,
    "ownPriceMinor" INTEGER,
    "ownCurrency" TEXT,
    "sourcePartnerId" INTEGER,
    "sourceShopId" INTEGER,
    "sourceDomain" TEXT,
    "addedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ListItem_wishlistId_fkey" FOREIGN KEY ("wishlistId") REFERENCES "Wishlist" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ListItem_productId_fkey" FOREIGN KEY ("productId") REFERENCES "Product" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ListItem_addedByUserId_fkey" FOREIGN KEY ("addedByUserId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_ListItem" ("addedAt", "addedByUserId", "checkoutMeta", "currencyOverride", "id", "market", "offerId", "ownCurrency", "ownDescription", "ownImageUrl", "ownPriceMinor", "ownTitle", "priceOverrideMinor", "priority", "productId", "purchased", "purchasedAt", "sourceDomain", "sourceLabel", "sourcePartnerId", "sourceShopId", "variantId", "wishlistId") SELECT "addedAt", "addedByUserId", "checkoutMeta", "currencyOverride", "id", "market", "offerId", "ownCurrency", "ownDescription", "ownImageUrl", "ownPriceMinor", "ownTitle", "priceOverrideMinor", "priority", "productId", "purchased", "purchasedAt", "sourceDomain", "sourceLabel", "sourcePartnerId", "sourceShopId", "variantId", "wishlistId" FROM "ListItem";
DROP TABLE "ListItem";
ALTER TABLE "new_ListItem" RENAME TO "ListItem";
CREATE INDEX "ListItem_wishlistId_addedAt_idx" ON "ListItem"("wishlistId", "addedAt");
CREATE INDEX "ListItem_addedByUserId_idx" ON "ListItem"("addedByUserId");
CREATE INDEX "ListItem_productId_idx" ON "ListItem"("productId");
CREATE UNIQUE INDEX "ListItem_wishlistId_productId_key" ON "ListItem"("wishlistId", "productId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "ProcessedWebhook_processedAt_idx" ON "ProcessedWebhook"("processedAt");

-- CreateIndex
CREATE INDEX "PurchaseConfirmation_shopDomain_customerId_idx" ON "PurchaseConfirmation"("shopDomain", "customerId");

-- CreateIndex
CREATE INDEX "PurchaseConfirmation_listItemId_idx" ON "PurchaseConfirmation"("listItemId");

-- CreateIndex
CREATE UNIQUE INDEX "PurchaseConfirmation_orderId_listItemId_key" ON "PurchaseConfirmation"("orderId", "listItemId");

-- CreateIndex
CREATE INDEX "ComplianceRequest_shopDomain_createdAt_idx" ON "ComplianceRequest"("shopDomain", "createdAt");

