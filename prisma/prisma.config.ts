// Prisma CLI configuration for machines without Prisma's native engines:
// the WebAssembly schema engine ("js") runs `migrate diff` (both providers)
// and `db push`/`migrate deploy` (SQLite). The app applies migrations with
// its own runner (app/db/migrate.server.ts), compatible with `migrate deploy`.
import path from "node:path";
import { defineConfig } from "prisma/config";

const url = process.env.DATABASE_URL ?? "file:./data/wishlist.db";
const isPostgres = /^postgres(ql)?:/.test(url);

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join(import.meta.dirname, isPostgres ? "postgresql/schema.prisma" : "schema.prisma"),
  async adapter() {
    if (isPostgres) {
      const { PrismaPg } = await import("@prisma/adapter-pg");
      return new PrismaPg({ connectionString: url });
    }
    const { PrismaBetterSQLite3 } = await import("@prisma/adapter-better-sqlite3");
    return new PrismaBetterSQLite3({ url: url.replace(/^file:/, "") });
  },
});
