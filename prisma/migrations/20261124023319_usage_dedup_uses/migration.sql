-- AlterTable (ADD COLUMN rather than the generated table rebuild: same result, no copy of the table)
ALTER TABLE "UsageDedup" ADD COLUMN "uses" INTEGER NOT NULL DEFAULT 1;
