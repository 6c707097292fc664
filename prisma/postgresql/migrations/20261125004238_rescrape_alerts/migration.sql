-- AlterTable
ALTER TABLE "AlertSent" ALTER COLUMN "shopId" DROP NOT NULL;

-- CreateTable
CREATE TABLE "ProductRescrape" (
    "productId" INTEGER NOT NULL,
    "host" TEXT NOT NULL,
    "market" TEXT NOT NULL DEFAULT '',
    "dueAt" TIMESTAMP(3) NOT NULL,
    "claimedBy" TEXT,
    "claimedUntil" TIMESTAMP(3),
    "failures" INTEGER NOT NULL DEFAULT 0,
    "gaveUpAt" TIMESTAMP(3),
    "lastReadAt" TIMESTAMP(3),
    "lastPriceMinor" INTEGER,
    "lastCurrency" TEXT,
    "lastAvailable" BOOLEAN,

    CONSTRAINT "ProductRescrape_pkey" PRIMARY KEY ("productId")
);

-- CreateTable
CREATE TABLE "RescrapeHost" (
    "host" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    "busyBy" TEXT,
    "busyUntil" TIMESTAMP(3),

    CONSTRAINT "RescrapeHost_pkey" PRIMARY KEY ("host")
);

-- CreateIndex
CREATE INDEX "ProductRescrape_dueAt_idx" ON "ProductRescrape"("dueAt");

-- CreateIndex
CREATE INDEX "ProductRescrape_gaveUpAt_idx" ON "ProductRescrape"("gaveUpAt");

-- AddForeignKey
ALTER TABLE "ProductRescrape" ADD CONSTRAINT "ProductRescrape_productId_fkey" FOREIGN KEY ("productId") REFERENCES "Product"("id") ON DELETE CASCADE ON UPDATE CASCADE;

