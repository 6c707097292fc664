-- AlterTable
ALTER TABLE "Product" ADD COLUMN     "available" BOOLEAN;

-- AlterTable
ALTER TABLE "ListItem" ADD COLUMN     "purchaseConfirmed" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "PlatformShop" ADD COLUMN     "currency" TEXT,
ADD COLUMN     "email" TEXT,
ADD COLUMN     "primaryDomain" TEXT;

-- CreateTable
CREATE TABLE "ProcessedWebhook" (
    "webhookId" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "shopDomain" TEXT NOT NULL,
    "processedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ProcessedWebhook_pkey" PRIMARY KEY ("webhookId")
);

-- CreateTable
CREATE TABLE "PurchaseConfirmation" (
    "id" SERIAL NOT NULL,
    "shopDomain" TEXT NOT NULL,
    "listItemId" INTEGER NOT NULL,
    "orderId" TEXT NOT NULL,
    "customerId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PurchaseConfirmation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ComplianceRequest" (
    "id" SERIAL NOT NULL,
    "shopDomain" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "customerId" TEXT,
    "data" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ComplianceRequest_pkey" PRIMARY KEY ("id")
);

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

-- AddForeignKey
ALTER TABLE "PurchaseConfirmation" ADD CONSTRAINT "PurchaseConfirmation_listItemId_fkey" FOREIGN KEY ("listItemId") REFERENCES "ListItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;

