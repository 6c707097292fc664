-- CreateTable
CREATE TABLE "AlertConsent" (
    "userId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "lang" TEXT NOT NULL,
    "confirmedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AlertConsent_pkey" PRIMARY KEY ("userId")
);

-- CreateTable
CREATE TABLE "AlertSettings" (
    "shopId" INTEGER NOT NULL,
    "priceDrop" BOOLEAN NOT NULL DEFAULT true,
    "backInStock" BOOLEAN NOT NULL DEFAULT true,
    "lowStock" BOOLEAN NOT NULL DEFAULT true,
    "lowStockThreshold" INTEGER NOT NULL DEFAULT 3,
    "senderName" TEXT,
    "replyTo" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AlertSettings_pkey" PRIMARY KEY ("shopId")
);

-- CreateTable
CREATE TABLE "VariantState" (
    "productId" INTEGER NOT NULL,
    "variantId" TEXT NOT NULL,
    "inventoryItemId" TEXT,
    "quantity" INTEGER,
    "available" BOOLEAN NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "VariantState_pkey" PRIMARY KEY ("productId","variantId")
);

-- CreateTable
CREATE TABLE "VariantPricePoint" (
    "id" SERIAL NOT NULL,
    "productId" INTEGER NOT NULL,
    "variantId" TEXT NOT NULL,
    "priceMinor" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "recordedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "VariantPricePoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "InventoryLevel" (
    "inventoryItemId" TEXT NOT NULL,
    "locationId" TEXT NOT NULL,
    "available" INTEGER NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "InventoryLevel_pkey" PRIMARY KEY ("inventoryItemId","locationId")
);

-- CreateTable
CREATE TABLE "AlertSent" (
    "id" SERIAL NOT NULL,
    "dedupKey" TEXT NOT NULL,
    "shopId" INTEGER NOT NULL,
    "userId" TEXT NOT NULL,
    "listItemId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "priceMinor" INTEGER,
    "currency" TEXT,
    "title" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AlertSent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AlertDay" (
    "userId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "AlertDay_pkey" PRIMARY KEY ("userId","day")
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

-- AddForeignKey
ALTER TABLE "AlertConsent" ADD CONSTRAINT "AlertConsent_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AlertSettings" ADD CONSTRAINT "AlertSettings_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "PlatformShop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

