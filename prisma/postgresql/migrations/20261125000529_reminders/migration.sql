-- AlterTable
ALTER TABLE "AlertConsent" ADD COLUMN     "remindersAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "AlertSettings" ADD COLUMN     "reminderDays" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "ReminderSent" (
    "id" SERIAL NOT NULL,
    "dedupKey" TEXT NOT NULL,
    "shopId" INTEGER NOT NULL,
    "userId" TEXT NOT NULL,
    "items" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReminderSent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ReminderSent_dedupKey_key" ON "ReminderSent"("dedupKey");

-- CreateIndex
CREATE INDEX "ReminderSent_userId_shopId_createdAt_idx" ON "ReminderSent"("userId", "shopId", "createdAt");

-- CreateIndex
CREATE INDEX "ReminderSent_shopId_createdAt_idx" ON "ReminderSent"("shopId", "createdAt");

-- AddForeignKey
ALTER TABLE "ReminderSent" ADD CONSTRAINT "ReminderSent_userId_fkey" FOREIGN KEY ("userId") REFERENCES "AlertConsent"("userId") ON DELETE CASCADE ON UPDATE CASCADE;

