-- AlterTable
ALTER TABLE "UsageDedup" ADD COLUMN     "uses" INTEGER NOT NULL DEFAULT 1;

