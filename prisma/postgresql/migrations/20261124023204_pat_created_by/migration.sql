-- AlterTable
ALTER TABLE "PersonalAccessToken" ADD COLUMN     "createdById" TEXT;

-- CreateIndex
CREATE INDEX "PersonalAccessToken_createdById_idx" ON "PersonalAccessToken"("createdById");

-- AddForeignKey
ALTER TABLE "PersonalAccessToken" ADD CONSTRAINT "PersonalAccessToken_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

