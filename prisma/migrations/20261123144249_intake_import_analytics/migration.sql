-- CreateTable
CREATE TABLE "ListImport" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "wishlistId" INTEGER NOT NULL,
    "sourceUrl" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "externalListId" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "itemCount" INTEGER NOT NULL DEFAULT 0,
    "lastSyncedAt" DATETIME,
    "error" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ListImport_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ListImport_wishlistId_fkey" FOREIGN KEY ("wishlistId") REFERENCES "Wishlist" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AnalyticsEvent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "partnerId" INTEGER NOT NULL,
    "apiKeyId" INTEGER,
    "event" TEXT NOT NULL,
    "properties" JSONB,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "AnalyticsEvent_partnerId_fkey" FOREIGN KEY ("partnerId") REFERENCES "Partner" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AnalyticsDay" (
    "partnerId" INTEGER NOT NULL,
    "day" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("partnerId", "day", "event"),
    CONSTRAINT "AnalyticsDay_partnerId_fkey" FOREIGN KEY ("partnerId") REFERENCES "Partner" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "ListImport_userId_createdAt_idx" ON "ListImport"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "ListImport_wishlistId_idx" ON "ListImport"("wishlistId");

-- CreateIndex
CREATE INDEX "AnalyticsEvent_partnerId_createdAt_idx" ON "AnalyticsEvent"("partnerId", "createdAt");

