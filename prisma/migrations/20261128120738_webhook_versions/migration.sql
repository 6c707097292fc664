-- AlterTable
ALTER TABLE "Product" ADD COLUMN "platformUpdatedAt" DATETIME;

-- AlterTable
ALTER TABLE "InventoryLevel" ADD COLUMN "reportedAt" DATETIME;

