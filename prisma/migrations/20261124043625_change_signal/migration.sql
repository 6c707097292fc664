-- CreateTable
CREATE TABLE "ChangeSignal" (
    "topic" TEXT NOT NULL PRIMARY KEY,
    "generation" INTEGER NOT NULL DEFAULT 0
);

