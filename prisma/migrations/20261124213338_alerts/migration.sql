-- CreateTable
CREATE TABLE "AlertConsent" (
    "userId" TEXT NOT NULL PRIMARY KEY,
    "email" TEXT NOT NULL,
    "lang" TEXT NOT NULL,
    "confirmedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "AlertConsent_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AlertSettings" (
    "shopId" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "priceDrop" BOOLEAN NOT NULL DEFAULT true,
    "backInStock" BOOLEAN NOT NULL DEFAULT true,
    "lowStock" BOOLEAN NOT NULL DEFAULT true,
    "lowStockThreshold" INTEGER NOT NULL DEFAULT 3,
    "senderName" TEXT,
    "replyTo" TEXT,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "AlertSettings_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "PlatformShop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "VariantState" (
    "productId" INTEGER NOT NULL,
    "variantId" TEXT NOT NULL,
    "inventoryItemId" TEXT,
    "quantity" INTEGER,
    "available" BOOLEAN NOT NULL,
    "updatedAt" DATETIME NOT NULL,

    PRIMARY KEY ("productId", "variantId")
);

-- CreateTable
CREATE TABLE "VariantPricePoint" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "productId" INTEGER NOT NULL,
    "variantId" TEXT NOT NULL,
    "priceMinor" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "recordedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "InventoryLevel" (
    "inventoryItemId" TEXT NOT NULL,
    "locationId" TEXT NOT NULL,
    "available" INTEGER NOT NULL,
    "updatedAt" DATETIME NOT NULL,

    PRIMARY KEY ("inventoryItemId", "locationId")
);

-- CreateTable
CREATE TABLE "AlertSent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "dedupKey" TEXT NOT NULL,
    "shopId" INTEGER NOT NULL,
    "userId" TEXT NOT NULL,
    "listItemId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "priceMinor" INTEGER,
    "currency" TEXT,
    "title" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "AlertDay" (
    "userId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    PRIMARY KEY ("userId", "day")
);

-- CreateIndex
CREATE INDEX "VariantState_inventoryItemId_idx" ON "VariantState"("inventoryItemId");

-- CreateIndex
CREATE INDEX "VariantPricePoint_productId_variantId_recordedAt_idx" ON "VariantPricePoint"("productId", "variantId", "recordedAt");

-- CreateIndex
CREATE UNIQUE INDEX "AlertSent_dedupKey_key" ON "AlertSent"("dedupKey");

-- CreateIndex
CREATE INDEX "AlertSent_shopId_id_idx" ON "AlertSent"("shopId", "id");

-- CreateIndex
CREATE INDEX "AlertSent_userId_idx" ON "AlertSent"("userId");

