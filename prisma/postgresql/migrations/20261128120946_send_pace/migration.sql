-- CreateTable
CREATE TABLE "SendPace" (
    "lane" TEXT NOT NULL,
    "nextAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SendPace_pkey" PRIMARY KEY ("lane")
);

