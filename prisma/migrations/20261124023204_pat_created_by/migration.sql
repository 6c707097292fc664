-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_PersonalAccessToken" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "partnerId" INTEGER NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "tokenHash" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL,
    "revokedAt" DATETIME,
    "lastUsedAt" DATETIME,
    "createdById" TEXT,
    CONSTRAINT "PersonalAccessToken_partnerId_fkey" FOREIGN KEY ("partnerId") REFERENCES "Partner" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "PersonalAccessToken_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_PersonalAccessToken" ("createdAt", "expiresAt", "id", "lastUsedAt", "name", "partnerId", "revokedAt", "tokenHash") SELECT "createdAt", "expiresAt", "id", "lastUsedAt", "name", "partnerId", "revokedAt", "tokenHash" FROM "PersonalAccessToken";
DROP TABLE "PersonalAccessToken";
ALTER TABLE "new_PersonalAccessToken" RENAME TO "PersonalAccessToken";
CREATE UNIQUE INDEX "PersonalAccessToken_tokenHash_key" ON "PersonalAccessToken"("tokenHash");
CREATE INDEX "PersonalAccessToken_partnerId_idx" ON "PersonalAccessToken"("partnerId");
CREATE INDEX "PersonalAccessToken_createdById_idx" ON "PersonalAccessToken"("createdById");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

