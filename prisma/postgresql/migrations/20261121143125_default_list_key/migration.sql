-- AlterTable
ALTER TABLE "Wishlist" DROP COLUMN "isDefault",
ADD COLUMN     "defaultKey" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Wishlist_ownerId_defaultKey_key" ON "Wishlist"("ownerId", "defaultKey");

