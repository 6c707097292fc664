// What `npm run db:migration:new` writes for PostgreSQL: indexes on tables that
// already exist move to migrations of their own, built concurrently.
import { describe, expect, it } from "vitest";
import { separateConcurrentIndexes } from "../../prisma/tools/concurrent-indexes.ts";

describe("separateConcurrentIndexes", () => {
  it("an index on an existing table becomes CREATE INDEX CONCURRENTLY IF NOT EXISTS; the rest stays transactional and in order", () => {
    const diff = [
      `-- AlterTable\nALTER TABLE "Item" ADD COLUMN "rank" INTEGER;`,
      `-- CreateIndex\nCREATE INDEX "Item_rank_idx" ON "Item"("rank");`,
      `-- CreateIndex\nCREATE UNIQUE INDEX "Item_listId_rank_key" ON "Item"("listId", "rank");`,
      `-- AlterTable\nALTER TABLE "List" ADD COLUMN "note" TEXT DEFAULT 'a; b';`,
    ].join("\n\n") + "\n";
    expect(separateConcurrentIndexes(diff)).toEqual({
      transactional:
        `-- AlterTable\nALTER TABLE "Item" ADD COLUMN "rank" INTEGER;\n\n` +
        `-- AlterTable\nALTER TABLE "List" ADD COLUMN "note" TEXT DEFAULT 'a; b';\n`,
      concurrentIndexes: [
        { index: "Item_rank_idx", sql: `-- CreateIndex\nCREATE INDEX CONCURRENTLY IF NOT EXISTS "Item_rank_idx" ON "Item"("rank");\n` },
        {
          index: "Item_listId_rank_key",
          sql: `-- CreateIndex\nCREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "Item_listId_rank_key" ON "Item"("listId", "rank");\n`,
        },
      ],
    });
  });

  it("indexes of a table this migration creates stay in it (the table is empty and unseen), and so does a unique index a new foreign key needs", () => {
    const diff = [
      `-- CreateTable\nCREATE TABLE "Note" (\n    "id" TEXT NOT NULL,\n    "code" TEXT NOT NULL,\n\n    CONSTRAINT "Note_pkey" PRIMARY KEY ("id")\n);`,
      `-- CreateIndex\nCREATE INDEX "Note_code_idx" ON "Note"("code");`,
      `-- CreateIndex\nCREATE UNIQUE INDEX "Shop_code_key" ON "Shop"("code");`,
      `-- AddForeignKey\nALTER TABLE "Note" ADD CONSTRAINT "Note_code_fkey" FOREIGN KEY ("code") REFERENCES "Shop"("code") ON DELETE RESTRICT ON UPDATE CASCADE;`,
    ].join("\n\n") + "\n";
    expect(separateConcurrentIndexes(diff)).toEqual({ transactional: diff, concurrentIndexes: [] });
  });

  it("a diff without a new index on an existing table is left byte for byte", () => {
    const diff = `-- DropIndex\nDROP INDEX "Item_rank_idx";\n\n-- AlterTable\nALTER TABLE "Item" DROP COLUMN "rank";\n`;
    expect(separateConcurrentIndexes(diff)).toEqual({ transactional: diff, concurrentIndexes: [] });
  });
});
