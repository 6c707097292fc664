-- AlterTable
ALTER TABLE "Wishlist" ADD COLUMN     "createdThroughPartnerId" INTEGER;

-- CreateTable
CREATE TABLE "ShopperConsent" (
    "userId" TEXT NOT NULL,
    "partnerId" INTEGER NOT NULL,
    "host" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ShopperConsent_pkey" PRIMARY KEY ("userId","partnerId")
);

-- CreateTable
CREATE TABLE "AccountToken" (
    "tokenHash" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "newEmail" TEXT,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AccountToken_pkey" PRIMARY KEY ("tokenHash")
);

-- CreateTable
CREATE TABLE "EmailQuota" (
    "key" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "EmailQuota_pkey" PRIMARY KEY ("key","day")
);

-- CreateIndex
CREATE INDEX "ShopperConsent_partnerId_idx" ON "ShopperConsent"("partnerId");

-- CreateIndex
CREATE INDEX "AccountToken_userId_idx" ON "AccountToken"("userId");

-- CreateIndex
CREATE INDEX "EmailQuota_day_idx" ON "EmailQuota"("day");

-- AddForeignKey
ALTER TABLE "ShopperConsent" ADD CONSTRAINT "ShopperConsent_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShopperConsent" ADD CONSTRAINT "ShopperConsent_partnerId_fkey" FOREIGN KEY ("partnerId") REFERENCES "Partner"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AccountToken" ADD CONSTRAINT "AccountToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

