-- CreateTable
CREATE TABLE "FlowTriggerUse" (
    "shopId" INTEGER NOT NULL,
    "handle" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL,
    "changedAt" DATETIME NOT NULL,

    PRIMARY KEY ("shopId", "handle"),
    CONSTRAINT "FlowTriggerUse_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "PlatformShop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

