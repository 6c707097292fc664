// A PostgreSQL server of a test's own (initdb in a temporary directory, its
// own port), for faults the shared server must never see: restarts and
// terminated sessions. Uses the PostgreSQL binaries Debian installs with the
// server (/usr/lib/postgresql/<version>/bin); as root, they run as `postgres`.
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "./net.ts";

export interface OwnPostgres {
  /** The URL of a database of this server (created on first use by `createDatabase`). */
  url(database: string): string;
  createDatabase(name: string): Promise<string>;
  /** `pg_ctl restart -m fast`: every session is ended, the server is back when this resolves. */
  restart(): Promise<void>;
  /** Ends every client session of `database` (what a failover, a pooler restart or an idle-session killer does). */
  terminateSessions(database: string): Promise<number>;
  stop(): Promise<void>;
}

function binDir(): string {
  const base = "/usr/lib/postgresql";
  const version = existsSync(base) ? readdirSync(base).sort((a, b) => Number(b) - Number(a))[0] : undefined;
  if (!version) throw new Error(`no PostgreSQL server binaries under ${base} (apt-get install postgresql)`);
  return path.join(base, version, "bin");
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const bin = binDir();
  const dir = mkdtempSync(path.join(tmpdir(), "wish-own-pg-"));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"]).toString());
    chownSync(dir, id("-u"), id("-g"));
  }
  const run = (tool: string, args: string[]) =>
    execFileSync(asRoot ? "runuser" : path.join(bin, tool), asRoot ? ["-u", "postgres", "--", path.join(bin, tool), ...args] : args, { stdio: "pipe" });
  const data = path.join(dir, "data");
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "--no-instructions"]);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const ctl = (...args: string[]) => run("pg_ctl", ["-D", data, "-l", path.join(dir, "log"), "-o", options, "-w", "-t", "60", ...args]);
  ctl("start");
  const url = (database: string) => `postgresql://postgres@127.0.0.1:${port}/${database}`;
  const admin = async <T>(fn: (c: pg.Client) => Promise<T>) => {
    const client = new pg.Client({ connectionString: url("postgres") });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  };
  return {
    url,
    async createDatabase(name) {
      await admin((c) => c.query(`CREATE DATABASE "${name}"`));
      return url(name);
    },
    async restart() {
      ctl("-m", "fast", "restart");
    },
    terminateSessions: (database) =>
      admin(async (c) => {
        const { rows } = await c.query(`SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [database]);
        return rows.filter((r) => r.ended).length;
      }),
    async stop() {
      try {
        ctl("-m", "immediate", "stop");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
