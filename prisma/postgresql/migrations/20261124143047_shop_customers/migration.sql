-- CreateTable
CREATE TABLE "ShopCustomer" (
    "shopId" INTEGER NOT NULL,
    "customerId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ShopCustomer_pkey" PRIMARY KEY ("shopId","customerId")
);

-- CreateIndex
CREATE INDEX "ShopCustomer_userId_idx" ON "ShopCustomer"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "ShopCustomer_shopId_userId_key" ON "ShopCustomer"("shopId", "userId");

-- AddForeignKey
ALTER TABLE "ShopCustomer" ADD CONSTRAINT "ShopCustomer_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "PlatformShop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShopCustomer" ADD CONSTRAINT "ShopCustomer_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

