-- CreateTable
CREATE TABLE "SendPace" (
    "lane" TEXT NOT NULL PRIMARY KEY,
    "nextAt" DATETIME NOT NULL
);

