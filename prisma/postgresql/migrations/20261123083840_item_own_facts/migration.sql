-- AlterTable
ALTER TABLE "ListItem" ADD COLUMN     "ownCurrency" TEXT,
ADD COLUMN     "ownDescription" TEXT,
ADD COLUMN     "ownImageUrl" TEXT,
ADD COLUMN     "ownPriceMinor" INTEGER,
ADD COLUMN     "ownTitle" TEXT;

