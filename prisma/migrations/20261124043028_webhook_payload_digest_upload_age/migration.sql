-- AlterTable
ALTER TABLE "ProcessedWebhook" ADD COLUMN "payloadDigest" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "ProcessedWebhook_payloadDigest_key" ON "ProcessedWebhook"("payloadDigest");

-- CreateIndex
CREATE INDEX "MediaUpload_createdAt_idx" ON "MediaUpload"("createdAt");

