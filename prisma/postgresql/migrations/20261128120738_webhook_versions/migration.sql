-- AlterTable
ALTER TABLE "Product" ADD COLUMN     "platformUpdatedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "InventoryLevel" ADD COLUMN     "reportedAt" TIMESTAMP(3);

