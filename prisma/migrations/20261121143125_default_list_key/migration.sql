-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Wishlist" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "shareToken" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "imagePath" TEXT NOT NULL DEFAULT '',
    "sharePublic" BOOLEAN NOT NULL DEFAULT false,
    "occasionSlug" TEXT NOT NULL DEFAULT '',
    "defaultKey" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Wishlist_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Wishlist" ("createdAt", "description", "id", "imagePath", "name", "occasionSlug", "ownerId", "sharePublic", "shareToken", "updatedAt") SELECT "createdAt", "description", "id", "imagePath", "name", "occasionSlug", "ownerId", "sharePublic", "shareToken", "updatedAt" FROM "Wishlist";
DROP TABLE "Wishlist";
ALTER TABLE "new_Wishlist" RENAME TO "Wishlist";
CREATE UNIQUE INDEX "Wishlist_shareToken_key" ON "Wishlist"("shareToken");
CREATE INDEX "Wishlist_ownerId_updatedAt_idx" ON "Wishlist"("ownerId", "updatedAt");
CREATE UNIQUE INDEX "Wishlist_ownerId_defaultKey_key" ON "Wishlist"("ownerId", "defaultKey");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

