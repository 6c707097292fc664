-- AlterTable
ALTER TABLE "AttributedOrder" ADD COLUMN     "refundedMinor" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "AttributedLine" ADD COLUMN     "refundedMinor" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "AlertSent" ADD COLUMN     "buyUrl" TEXT,
ADD COLUMN     "clickKey" TEXT,
ADD COLUMN     "clickedAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "AttributedRefund" (
    "id" SERIAL NOT NULL,
    "attributedOrderId" INTEGER NOT NULL,
    "shopId" INTEGER NOT NULL,
    "refundId" TEXT NOT NULL,
    "refundedMinor" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AttributedRefund_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AttributedRefund_attributedOrderId_idx" ON "AttributedRefund"("attributedOrderId");

-- CreateIndex
CREATE UNIQUE INDEX "AttributedRefund_shopId_refundId_key" ON "AttributedRefund"("shopId", "refundId");

-- AddForeignKey
ALTER TABLE "AttributedRefund" ADD CONSTRAINT "AttributedRefund_attributedOrderId_fkey" FOREIGN KEY ("attributedOrderId") REFERENCES "AttributedOrder"("id") ON DELETE CASCADE ON UPDATE CASCADE;
