-- CreateIndex
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "AlertSent_clickKey_key" ON "AlertSent"("clickKey");
