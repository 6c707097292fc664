-- CreateTable
CREATE TABLE "Media" (
    "id" SERIAL NOT NULL,
    "shopId" INTEGER NOT NULL,
    "partnerId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "mime" TEXT NOT NULL,
    "bytes" INTEGER NOT NULL,
    "storagePath" TEXT NOT NULL,
    "posterPath" TEXT,
    "status" TEXT NOT NULL DEFAULT 'ready',
    "position" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Media_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MediaUpload" (
    "id" TEXT NOT NULL,
    "shopId" INTEGER NOT NULL,
    "partnerId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "mime" TEXT NOT NULL,
    "declaredBytes" INTEGER NOT NULL,
    "storagePath" TEXT NOT NULL,
    "receivedBytes" INTEGER NOT NULL DEFAULT 0,
    "chunks" INTEGER NOT NULL DEFAULT 0,
    "complete" BOOLEAN NOT NULL DEFAULT false,
    "lockedAt" TIMESTAMP(3),
    "s3UploadId" TEXT,
    "s3Parts" TEXT NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MediaUpload_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Media_storagePath_key" ON "Media"("storagePath");

-- CreateIndex
CREATE INDEX "Media_shopId_position_idx" ON "Media"("shopId", "position");

-- CreateIndex
CREATE INDEX "Media_shopId_kind_status_idx" ON "Media"("shopId", "kind", "status");

-- CreateIndex
CREATE UNIQUE INDEX "MediaUpload_storagePath_key" ON "MediaUpload"("storagePath");

-- CreateIndex
CREATE INDEX "MediaUpload_shopId_idx" ON "MediaUpload"("shopId");

-- AddForeignKey
ALTER TABLE "Media" ADD CONSTRAINT "Media_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "PlatformShop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MediaUpload" ADD CONSTRAINT "MediaUpload_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "PlatformShop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

