-- CreateTable
CREATE TABLE "UsageDay" (
    "partnerId" INTEGER NOT NULL,
    "day" TEXT NOT NULL,
    "saves" INTEGER NOT NULL DEFAULT 0,
    "shares" INTEGER NOT NULL DEFAULT 0,
    "listViews" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("partnerId", "day"),
    CONSTRAINT "UsageDay_partnerId_fkey" FOREIGN KEY ("partnerId") REFERENCES "Partner" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

