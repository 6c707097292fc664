-- CreateTable
CREATE TABLE "ListImport" (
    "id" SERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "wishlistId" INTEGER NOT NULL,
    "sourceUrl" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "externalListId" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "itemCount" INTEGER NOT NULL DEFAULT 0,
    "lastSyncedAt" TIMESTAMP(3),
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ListImport_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AnalyticsEvent" (
    "id" SERIAL NOT NULL,
    "partnerId" INTEGER NOT NULL,
    "apiKeyId" INTEGER,
    "event" TEXT NOT NULL,
    "properties" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AnalyticsEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AnalyticsDay" (
    "partnerId" INTEGER NOT NULL,
    "day" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "AnalyticsDay_pkey" PRIMARY KEY ("partnerId","day","event")
);

-- CreateIndex
CREATE INDEX "ListImport_userId_createdAt_idx" ON "ListImport"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "ListImport_wishlistId_idx" ON "ListImport"("wishlistId");

-- CreateIndex
CREATE INDEX "AnalyticsEvent_partnerId_createdAt_idx" ON "AnalyticsEvent"("partnerId", "createdAt");

-- AddForeignKey
ALTER TABLE "ListImport" ADD CONSTRAINT "ListImport_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ListImport" ADD CONSTRAINT "ListImport_wishlistId_fkey" FOREIGN KEY ("wishlistId") REFERENCES "Wishlist"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AnalyticsEvent" ADD CONSTRAINT "AnalyticsEvent_partnerId_fkey" FOREIGN KEY ("partnerId") REFERENCES "Partner"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AnalyticsDay" ADD CONSTRAINT "AnalyticsDay_partnerId_fkey" FOREIGN KEY ("partnerId") REFERENCES "Partner"("id") ON DELETE CASCADE ON UPDATE CASCADE;

