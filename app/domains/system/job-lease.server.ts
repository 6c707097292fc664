// Jobs that must run once per deployment (not once per process or machine)
// run only in the process holding their lease: a JobLease row taken and
// renewed with one conditional upsert. Expiry is written and compared with
// the database's clock, so processes on machines with skewed clocks agree. A
// crashed holder's lease runs out after JOB_LEASE_TTL_MS and another process
// takes it at its next try (every third of that); a clean shutdown deletes
// the row, so the next holder does not wait. Two holders can still overlap
// for a moment (a holder stalled past its expiry keeps running until its
// next renewal fails), so leased jobs must stay safe to run twice at once.
// It lives here, not in app/lib, because it needs the database; it knows
// nothing of the jobs it runs (app/background.server.ts wires them).
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { deleteLease, upsertLease } from "./job-lease.sql.server";
import { parseDatabaseUrl } from "~/db/url";
import { env } from "~/env.server";
import { errorFields, log } from "~/lib/log.server";

/** This process, as a lease holder: host and pid for operators, random so a reused pid is another holder. */
export const instanceId = `${hostname()}/${process.pid}/${randomBytes(4).toString("hex")}`;

const postgres = parseDatabaseUrl(env.DATABASE_URL).kind === "postgresql";

/** Takes or renews the lease; true when `holder` holds it for `ttlMs` from now. */
export async function takeLease(name: string, holder: string, ttlMs: number): Promise<boolean> {
  return (await upsertLease(postgres, name, holder, ttlMs)) === holder;
}

/** True when this holder still held the row it removed (another process may have taken an expired lease). */
export async function releaseLease(name: string, holder: string): Promise<boolean> {
  return (await deleteLease(name, holder)) > 0;
}

export interface LeasedJob {
  start(): void;
  stop(): Promise<void>;
}

export interface Lease {
  start(): void;
  /** Stops the job if it runs here, then releases the lease. */
  stop(): Promise<void>;
  holding(): boolean;
}

/** Runs `job` in this process while it holds lease `name`; tries to take or renew it every ttlMs / 3. */
export function underLease(name: string, job: LeasedJob, ttlMs = env.JOB_LEASE_TTL_MS): Lease {
  let holding = false;
  let stopped = true;
  let timer: NodeJS.Timeout | null = null;
  let ticking: Promise<void> | null = null;

  const tick = async () => {
    let held = false;
    try {
      held = await takeLease(name, instanceId, ttlMs);
    } catch (err) {
      // Without a renewal the lease may pass to another process: stop rather than risk running on beside it.
      log.error("job lease renewal failed", { name, ...errorFields(err) });
    }
    if (stopped) return;
    if (held && !holding) {
      holding = true;
      log.info("job lease taken", { name, holder: instanceId });
      job.start();
    } else if (!held && holding) {
      holding = false;
      log.warn("job lease lost", { name, holder: instanceId });
      await job.stop();
    }
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      ticking = tick().finally(() => {
        ticking = null;
        schedule();
      });
    }, Math.max(100, Math.floor(ttlMs / 3)));
    timer.unref();
  };

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      ticking = tick().finally(() => {
        ticking = null;
        schedule();
      });
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await ticking;
      const held = holding;
      holding = false;
      if (held) await job.stop();
      try {
        // Also when not holding: a take that raced this stop may have won the row.
        // Logged only when the row was still ours: a renewal late past the expiry may have lost it.
        if ((await releaseLease(name, instanceId)) && held) log.info("job lease released", { name, holder: instanceId });
      } catch (err) {
        log.error("job lease release failed", { name, ...errorFields(err) });
      }
    },
    holding: () => holding,
  };
}
