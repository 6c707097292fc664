// A PostgreSQL server of a test's own (initdb in a temporary directory, its
// own port), for faults the shared server must never see: restarts and
// terminated sessions; and a streaming standby of it (a read replica). Uses the PostgreSQL binaries Debian installs with the
// server (/usr/lib/postgresql/<version>/bin); as root, they run as `postgres`.
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
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
  /**
   * A hot standby of this server (pg_basebackup -R -X stream into a new data
   * directory, started on a port of its own), streaming from it; stopped with it.
   */
  startStandby(): Promise<OwnStandby>;
  stop(): Promise<void>;
}

export interface OwnStandby {
  url(database: string): string;
  /** Whether the standby has replayed everything committed on the primary before this was called. */
  caughtUp(): Promise<boolean>;
  /** Stops and resumes applying WAL (it keeps receiving it): the standby falls behind, by as long as the pause lasts. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** The standby's log; it logs every statement run on it (log_statement=all). */
  log(): string;
  /** Stops the standby (`-m immediate`, a crash as its clients see it); `stop` of the primary does it too. */
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
  // -A trust: initdb's pg_hba.conf then also lets 127.0.0.1 connect for replication (pg_basebackup, the standby).
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "--no-instructions"]);
  const port = await freePort();
  const serverOptions = (p: number) => `-p ${p} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const pgCtl = (dataDir: string, log: string, options: string, ...args: string[]) =>
    run("pg_ctl", ["-D", dataDir, "-l", log, "-o", options, "-w", "-t", "60", ...args]);
  const ctl = (...args: string[]) => pgCtl(data, path.join(dir, "log"), serverOptions(port), ...args);
  ctl("start");
  const urlOn = (p: number) => (database: string) => `postgresql://postgres@127.0.0.1:${p}/${database}`;
  const url = urlOn(port);
  const query = async <T>(connectionString: string, fn: (c: pg.Client) => Promise<T>) => {
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  };
  const admin = <T>(fn: (c: pg.Client) => Promise<T>) => query(url("postgres"), fn);
  const standbys: (() => void)[] = [];

  async function startStandby(): Promise<OwnStandby> {
    const n = standbys.length + 1;
    const standbyData = path.join(dir, `standby${n}`);
    const standbyLog = path.join(dir, `standby${n}.log`);
    // -R writes primary_conninfo and standby.signal; -X stream copies the WAL written meanwhile; -c fast: no wait for a checkpoint.
    run("pg_basebackup", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-D", standbyData, "-R", "-X", "stream", "-c", "fast", "--no-sync"]);
    const standbyPort = await freePort();
    const options = `${serverOptions(standbyPort)} -c hot_standby=on -c log_statement=all`;
    pgCtl(standbyData, standbyLog, options, "start");
    let running = true;
    const stopStandby = () => {
      if (!running) return;
      running = false;
      pgCtl(standbyData, standbyLog, options, "-m", "immediate", "stop");
    };
    standbys.push(stopStandby);
    const standbyUrl = urlOn(standbyPort);
    const onStandby = <T>(fn: (c: pg.Client) => Promise<T>) => query(standbyUrl("postgres"), fn);
    return {
      url: standbyUrl,
      async caughtUp() {
        // This server commits asynchronously (synchronous_commit=off): a write of its own committed with
        // it on flushes the WAL of every commit before, so "flushed" covers everything committed so far.
        // (A transaction that only takes an xid writes no WAL before its commit record and is not flushed.)
        const lsn = await admin(async (c) => {
          await c.query(`SET synchronous_commit = on`);
          await c.query(`CREATE TABLE IF NOT EXISTS wish_flush (at timestamptz)`);
          await c.query(`INSERT INTO wish_flush VALUES (now())`);
          return (await c.query(`SELECT pg_current_wal_flush_lsn()::text AS lsn`)).rows[0].lsn as string;
        });
        return onStandby(async (c) => (await c.query(`SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok`, [lsn])).rows[0].ok === true);
      },
      pauseReplay: () => onStandby(async (c) => void (await c.query(`SELECT pg_wal_replay_pause()`))),
      resumeReplay: () => onStandby(async (c) => void (await c.query(`SELECT pg_wal_replay_resume()`))),
      log: () => (existsSync(standbyLog) ? readFileSync(standbyLog, "utf8") : ""),
      async stop() {
        stopStandby();
      },
    };
  }

  return {
    startStandby,
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
        for (const stopStandby of standbys) {
          try {
            stopStandby();
          } catch {
            // Stopped already (or never came up): the primary still stops, the directory still goes.
          }
        }
        ctl("-m", "immediate", "stop");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
