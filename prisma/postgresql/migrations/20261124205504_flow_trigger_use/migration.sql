-- CreateTable
CREATE TABLE "FlowTriggerUse" (
    "shopId" INTEGER NOT NULL,
    "handle" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL,
    "changedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "FlowTriggerUse_pkey" PRIMARY KEY ("shopId","handle")
);

-- AddForeignKey
ALTER TABLE "FlowTriggerUse" ADD CONSTRAINT "FlowTriggerUse_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "PlatformShop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

