// The operator CLI `wish` as tests call it (a process each), and the anon key
// of a test server. Free of vitest imports: the global setup uses it too.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { root } from "./server.ts";
import { sql } from "./sql.ts";

const execFileAsync = promisify(execFile);

/** Runs `wish …` (the operator CLI) against a database; resolves with parsed stdout or rejects with stderr. */
export async function wish(databaseUrl: string, args: string[], env: Record<string, string> = {}): Promise<any> {
  const { stdout } = await execFileAsync(process.execPath, [path.join(root, "app/cli/wish.mjs"), ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "warn", ...env },
  });
  return JSON.parse(stdout);
}

/** Like `wish` but resolves with exit code, stdout and stderr instead of throwing. */
export async function wishRaw(databaseUrl: string, args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [path.join(root, "app/cli/wish.mjs"), ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "warn", ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/**
 * The server's anon key, read where the server stores it. A request with a
 * wrong key first makes a fresh server load (and so store) it: cheaper than a
 * `wish config` process (half a second of CPU), which is the fallback, e.g.
 * for a server whose key comes from ANON_KEY.
 */
export async function anonKeyOf(server: { url: string; databaseUrl: string }): Promise<string> {
  await (await fetch(`${server.url}/api/v1/auth/user`, { headers: { apikey: "not-the-key" } })).arrayBuffer();
  const [stored] = await sql<{ value: string }>(server.databaseUrl, `SELECT "value" FROM "AppSecret" WHERE "name" = 'anon_key'`);
  return stored?.value ?? (await wish(server.databaseUrl, ["config"], { APP_URL: server.url })).config.anon_key;
}
