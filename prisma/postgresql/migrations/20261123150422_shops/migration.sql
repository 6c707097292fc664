-- AlterTable
ALTER TABLE "PlatformShop" ADD COLUMN     "description" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "handle" TEXT,
ADD COLUMN     "published" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "ShopList" (
    "id" SERIAL NOT NULL,
    "shopId" INTEGER NOT NULL,
    "slug" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "featured" BOOLEAN NOT NULL DEFAULT false,
    "position" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ShopList_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ShopListProduct" (
    "shopListId" INTEGER NOT NULL,
    "productId" INTEGER NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ShopListProduct_pkey" PRIMARY KEY ("shopListId","productId")
);

-- CreateTable
CREATE TABLE "ShopFollow" (
    "shopId" INTEGER NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ShopFollow_pkey" PRIMARY KEY ("shopId","userId")
);

-- CreateIndex
CREATE INDEX "ShopList_shopId_position_idx" ON "ShopList"("shopId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "ShopList_shopId_slug_key" ON "ShopList"("shopId", "slug");

-- CreateIndex
CREATE INDEX "ShopListProduct_shopListId_position_idx" ON "ShopListProduct"("shopListId", "position");

-- CreateIndex
CREATE INDEX "ShopListProduct_productId_idx" ON "ShopListProduct"("productId");

-- CreateIndex
CREATE INDEX "ShopFollow_shopId_createdAt_idx" ON "ShopFollow"("shopId", "createdAt");

-- CreateIndex
CREATE INDEX "ShopFollow_userId_createdAt_idx" ON "ShopFollow"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "Wishlist_sharePublic_id_idx" ON "Wishlist"("sharePublic", "id");

-- CreateIndex
CREATE INDEX "Product_sourceShopId_id_idx" ON "Product"("sourceShopId", "id");

-- CreateIndex
CREATE INDEX "Product_sourceShopId_productType_id_idx" ON "Product"("sourceShopId", "productType", "id");

-- CreateIndex
CREATE INDEX "ListItem_productId_addedAt_idx" ON "ListItem"("productId", "addedAt");

-- CreateIndex
CREATE UNIQUE INDEX "PlatformShop_handle_key" ON "PlatformShop"("handle");

-- CreateIndex
CREATE INDEX "PlatformShop_published_id_idx" ON "PlatformShop"("published", "id");

-- AddForeignKey
ALTER TABLE "ShopList" ADD CONSTRAINT "ShopList_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "PlatformShop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShopListProduct" ADD CONSTRAINT "ShopListProduct_shopListId_fkey" FOREIGN KEY ("shopListId") REFERENCES "ShopList"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShopListProduct" ADD CONSTRAINT "ShopListProduct_productId_fkey" FOREIGN KEY ("productId") REFERENCES "Product"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShopFollow" ADD CONSTRAINT "ShopFollow_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "PlatformShop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShopFollow" ADD CONSTRAINT "ShopFollow_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

