-- CreateTable
CREATE TABLE "ShopCustomer" (
    "shopId" INTEGER NOT NULL,
    "customerId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("shopId", "customerId"),
    CONSTRAINT "ShopCustomer_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "PlatformShop" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ShopCustomer_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "ShopCustomer_userId_idx" ON "ShopCustomer"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "ShopCustomer_shopId_userId_key" ON "ShopCustomer"("shopId", "userId");

