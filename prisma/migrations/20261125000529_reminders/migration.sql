-- AlterTable
ALTER TABLE "AlertConsent" ADD COLUMN "remindersAt" DATETIME;

-- CreateTable
CREATE TABLE "ReminderSent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "dedupKey" TEXT NOT NULL,
    "shopId" INTEGER NOT NULL,
    "userId" TEXT NOT NULL,
    "items" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ReminderSent_userId_fkey" FOREIGN KEY ("userId") REFERENCES "AlertConsent" ("userId") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_AlertSettings" (
    "shopId" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "priceDrop" BOOLEAN NOT NULL DEFAULT true,
    "backInStock" BOOLEAN NOT NULL DEFAULT true,
    "lowStock" BOOLEAN NOT NULL DEFAULT true,
    "lowStockThreshold" INTEGER NOT NULL DEFAULT 3,
    "senderName" TEXT,
    "replyTo" TEXT,
    "reminderDays" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "AlertSettings_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "PlatformShop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_AlertSettings" ("backInStock", "lowStock", "lowStockThreshold", "priceDrop", "replyTo", "senderName", "shopId", "updatedAt") SELECT "backInStock", "lowStock", "lowStockThreshold", "priceDrop", "replyTo", "senderName", "shopId", "updatedAt" FROM "AlertSettings";
DROP TABLE "AlertSettings";
ALTER TABLE "new_AlertSettings" RENAME TO "AlertSettings";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "ReminderSent_dedupKey_key" ON "ReminderSent"("dedupKey");

-- CreateIndex
CREATE INDEX "ReminderSent_userId_shopId_createdAt_idx" ON "ReminderSent"("userId", "shopId", "createdAt");

-- CreateIndex
CREATE INDEX "ReminderSent_shopId_createdAt_idx" ON "ReminderSent"("shopId", "createdAt");

