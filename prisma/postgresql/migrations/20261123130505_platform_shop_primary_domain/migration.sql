-- CreateIndex
CREATE INDEX "PlatformShop_primaryDomain_idx" ON "PlatformShop"("primaryDomain");

