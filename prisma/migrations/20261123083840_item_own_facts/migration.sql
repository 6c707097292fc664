-- AlterTable
ALTER TABLE "ListItem" ADD COLUMN "ownCurrency" TEXT;
ALTER TABLE "ListItem" ADD COLUMN "ownDescription" TEXT;
ALTER TABLE "ListItem" ADD COLUMN "ownImageUrl" TEXT;
ALTER TABLE "ListItem" ADD COLUMN "ownPriceMinor" INTEGER;
ALTER TABLE "ListItem" ADD COLUMN "ownTitle" TEXT;

