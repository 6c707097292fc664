// Runs the Prisma CLI offline: it must never try to download native engines
// (there is no network for that here, and the Rust-free client needs none).
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "../..");

function placeholderEngine(): string {
  const dir = path.join(root, "node_modules/.cache/prisma-offline");
  const file = path.join(dir, "engine-placeholder");
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, "placeholder: the Rust-free client and the WebAssembly schema engine need no native engine\n");
  }
  return file;
}

export function prisma(args: string[], opts: { capture?: boolean; env?: Record<string, string> } = {}): string {
  const placeholder = placeholderEngine();
  const result = spawnSync(path.join(root, "node_modules/.bin/prisma"), args, {
    cwd: root,
    encoding: "utf8",
    stdio: opts.capture ? ["ignore", "pipe", "inherit"] : "inherit",
    env: {
      ...process.env,
      PRISMA_QUERY_ENGINE_LIBRARY: placeholder,
      PRISMA_SCHEMA_ENGINE_BINARY: placeholder,
      PRISMA_HIDE_UPDATE_MESSAGE: "1",
      CHECKPOINT_DISABLE: "1",
      DATABASE_URL: process.env.DATABASE_URL ?? "file:./placeholder.db",
      ...opts.env,
    },
  });
  if (result.status !== 0) {
    throw new Error(`prisma ${args.join(" ")} failed with exit code ${result.status}`);
  }
  return result.stdout ?? "";
}
