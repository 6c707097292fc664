-- CreateTable
CREATE TABLE "ShopList" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "shopId" INTEGER NOT NULL,
    "slug" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "featured" BOOLEAN NOT NULL DEFAULT false,
    "position" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ShopList_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "PlatformShop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ShopListProduct" (
    "shopListId" INTEGER NOT NULL,
    "productId" INTEGER NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("shopListId", "productId"),
    CONSTRAINT "ShopListProduct_shopListId_fkey" FOREIGN KEY ("shopListId") REFERENCES "ShopList" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ShopListProduct_productId_fkey" FOREIGN KEY ("productId") REFERENCES "Product" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ShopFollow" (
    "shopId" INTEGER NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("shopId", "userId"),
    CONSTRAINT "ShopFollow_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "PlatformShop" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ShopFollow_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_PlatformShop" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "partnerId" INTEGER NOT NULL,
    "domain" TEXT NOT NULL,
    "name" TEXT,
    "primaryDomain" TEXT,
    "email" TEXT,
    "currency" TEXT,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "installedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "uninstalledAt" DATETIME,
    "trialEndsAt" DATETIME NOT NULL,
    "subscriptionStatus" TEXT NOT NULL DEFAULT 'trialing',
    "plan" TEXT,
    "subscriptionId" TEXT,
    "updatedAt" DATETIME NOT NULL,
    "handle" TEXT,
    "published" BOOLEAN NOT NULL DEFAULT false,
    "description" TEXT NOT NULL DEFAULT '',
    CONSTRAINT "PlatformShop_partnerId_fkey" FOREIGN KEY ("partnerId") REFERENCES "Partner" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_PlatformShop" ("active", "currency", "domain", "email", "id", "installedAt", "name", "partnerId", "plan", "primaryDomain", "subscriptionId", "subscriptionStatus", "trialEndsAt", "uninstalledAt", "updatedAt") SELECT "active", "currency", "domain", "email", "id", "installedAt", "name", "partnerId", "plan", "primaryDomain", "subscriptionId", "subscriptionStatus", "trialEndsAt", "uninstalledAt", "updatedAt" FROM "PlatformShop";
DROP TABLE "PlatformShop";
ALTER TABLE "new_PlatformShop" RENAME TO "PlatformShop";
CREATE UNIQUE INDEX "PlatformShop_domain_key" ON "PlatformShop"("domain");
CREATE UNIQUE INDEX "PlatformShop_handle_key" ON "PlatformShop"("handle");
CREATE INDEX "PlatformShop_partnerId_idx" ON "PlatformShop"("partnerId");
CREATE INDEX "PlatformShop_primaryDomain_idx" ON "PlatformShop"("primaryDomain");
CREATE INDEX "PlatformShop_published_id_idx" ON "PlatformShop"("published", "id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

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

