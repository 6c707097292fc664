-- AlterTable
ALTER TABLE "AlertSent" ADD COLUMN "buyUrl" TEXT;
ALTER TABLE "AlertSent" ADD COLUMN "clickKey" TEXT;
ALTER TABLE "AlertSent" ADD COLUMN "clickedAt" DATETIME;

-- CreateTable
CREATE TABLE "AttributedRefund" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "attributedOrderId" INTEGER NOT NULL,
    "shopId" INTEGER NOT NULL,
    "refundId" TEXT NOT NULL,
    "refundedMinor" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "AttributedRefund_attributedOrderId_fkey" FOREIGN KEY ("attributedOrderId") REFERENCES "AttributedOrder" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_AttributedOrder" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "shopId" INTEGER NOT NULL,
    "orderId" TEXT NOT NULL,
    "customerId" TEXT,
    "currency" TEXT NOT NULL,
    "revenueMinor" INTEGER NOT NULL,
    "refundedMinor" INTEGER NOT NULL DEFAULT 0,
    "orderedAt" DATETIME NOT NULL,
    "day" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "AttributedOrder_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "PlatformShop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_AttributedOrder" ("createdAt", "currency", "customerId", "day", "id", "orderId", "orderedAt", "revenueMinor", "shopId") SELECT "createdAt", "currency", "customerId", "day", "id", "orderId", "orderedAt", "revenueMinor", "shopId" FROM "AttributedOrder";
DROP TABLE "AttributedOrder";
ALTER TABLE "new_AttributedOrder" RENAME TO "AttributedOrder";
CREATE INDEX "AttributedOrder_shopId_customerId_idx" ON "AttributedOrder"("shopId", "customerId");
CREATE UNIQUE INDEX "AttributedOrder_shopId_orderId_key" ON "AttributedOrder"("shopId", "orderId");
CREATE TABLE "new_AttributedLine" (
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
    "refundedMinor" INTEGER NOT NULL DEFAULT 0,
    "currency" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    CONSTRAINT "AttributedLine_attributedOrderId_fkey" FOREIGN KEY ("attributedOrderId") REFERENCES "AttributedOrder" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "AttributedLine_listItemId_fkey" FOREIGN KEY ("listItemId") REFERENCES "ListItem" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_AttributedLine" ("attributedOrderId", "currency", "day", "id", "lineId", "listItemId", "productKey", "quantity", "revenueMinor", "shopId", "shopifyProductId", "source", "title") SELECT "attributedOrderId", "currency", "day", "id", "lineId", "listItemId", "productKey", "quantity", "revenueMinor", "shopId", "shopifyProductId", "source", "title" FROM "AttributedLine";
DROP TABLE "AttributedLine";
ALTER TABLE "new_AttributedLine" RENAME TO "AttributedLine";
CREATE INDEX "AttributedLine_shopId_day_idx" ON "AttributedLine"("shopId", "day");
CREATE INDEX "AttributedLine_listItemId_idx" ON "AttributedLine"("listItemId");
CREATE UNIQUE INDEX "AttributedLine_attributedOrderId_lineId_key" ON "AttributedLine"("attributedOrderId", "lineId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "AttributedRefund_attributedOrderId_idx" ON "AttributedRefund"("attributedOrderId");

-- CreateIndex
CREATE UNIQUE INDEX "AttributedRefund_shopId_refundId_key" ON "AttributedRefund"("shopId", "refundId");

-- CreateIndex
CREATE UNIQUE INDEX "AlertSent_clickKey_key" ON "AlertSent"("clickKey");

