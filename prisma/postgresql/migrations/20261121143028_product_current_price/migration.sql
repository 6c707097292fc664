-- AlterTable
ALTER TABLE "ProductLocalization" ADD COLUMN     "compareAtPriceMinor" INTEGER,
ADD COLUMN     "currency" TEXT,
ADD COLUMN     "priceMinor" INTEGER;

