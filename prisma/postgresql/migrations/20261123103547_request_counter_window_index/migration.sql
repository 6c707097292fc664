-- CreateIndex
CREATE INDEX "ApiKeyRequestCounter_window_idx" ON "ApiKeyRequestCounter"("window");

