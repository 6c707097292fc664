-- AlterTable
ALTER TABLE "ProductLocalization" ADD COLUMN "compareAtPriceMinor" INTEGER;
ALTER TABLE "ProductLocalization" ADD COLUMN "currency" TEXT;
ALTER TABLE "ProductLocalization" ADD COLUMN "priceMinor" INTEGER;

