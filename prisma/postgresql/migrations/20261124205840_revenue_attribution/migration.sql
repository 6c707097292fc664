-- AlterTable
ALTER TABLE "PlatformShop" ADD COLUMN     "attributionWindowDays" INTEGER NOT NULL DEFAULT 30;

-- CreateTable
CREATE TABLE "AttributedOrder" (
    "id" SERIAL NOT NULL,
    "shopId" INTEGER NOT NULL,
    "orderId" TEXT NOT NULL,
    "customerId" TEXT,
    "currency" TEXT NOT NULL,
    "revenueMinor" INTEGER NOT NULL,
    "orderedAt" TIMESTAMP(3) NOT NULL,
    "day" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AttributedOrder_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AttributedLine" (
    "id" SERIAL NOT NULL,
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

    CONSTRAINT "AttributedLine_pkey" PRIMARY KEY ("id")
);

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

-- AddForeignKey
ALTER TABLE "AttributedOrder" ADD CONSTRAINT "AttributedOrder_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "PlatformShop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AttributedLine" ADD CONSTRAINT "AttributedLine_attributedOrderId_fkey" FOREIGN KEY ("attributedOrderId") REFERENCES "AttributedOrder"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AttributedLine" ADD CONSTRAINT "AttributedLine_listItemId_fkey" FOREIGN KEY ("listItemId") REFERENCES "ListItem"("id") ON DELETE SET NULL ON UPDATE CASCADE;

