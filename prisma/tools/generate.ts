// Derives the PostgreSQL schema from prisma/schema.prisma (the one source of
// the data model) and generates both Prisma clients.
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { prisma, root } from "./prisma-cli.ts";

export const sqliteSchema = path.join(root, "prisma/schema.prisma");
export const postgresSchema = path.join(root, "prisma/postgresql/schema.prisma");

export function postgresSchemaText(sqliteText: string): string {
  const header =
    "// GENERATED from prisma/schema.prisma by `npm run db:generate`. Do not edit.\n\n";
  return (
    header +
    sqliteText
      .replace('provider = "sqlite"', 'provider = "postgresql"')
      .replace('output     = "../node_modules/.wishlist-db/sqlite"', 'output     = "../../node_modules/.wishlist-db/postgresql"')
  );
}

export function writePostgresSchema(): void {
  const text = postgresSchemaText(readFileSync(sqliteSchema, "utf8"));
  if (!text.includes('provider = "postgresql"') || !text.includes(".wishlist-db/postgresql")) {
    throw new Error("could not derive the PostgreSQL schema: generator or datasource block changed shape");
  }
  mkdirSync(path.dirname(postgresSchema), { recursive: true });
  writeFileSync(postgresSchema, text);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writePostgresSchema();
  prisma(["generate", "--schema", sqliteSchema]);
  prisma(["generate", "--schema", postgresSchema]);
}
