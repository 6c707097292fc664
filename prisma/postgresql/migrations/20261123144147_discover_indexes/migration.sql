-- CreateIndex
CREATE INDEX "Wishlist_occasionSlug_sharePublic_idx" ON "Wishlist"("occasionSlug", "sharePublic");

-- CreateIndex
CREATE INDEX "Product_sourceDomain_productType_idx" ON "Product"("sourceDomain", "productType");

-- CreateIndex
CREATE INDEX "ListItem_addedAt_productId_idx" ON "ListItem"("addedAt", "productId");

