-- CreateTable
CREATE TABLE "ChangeSignal" (
    "topic" TEXT NOT NULL,
    "generation" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ChangeSignal_pkey" PRIMARY KEY ("topic")
);

