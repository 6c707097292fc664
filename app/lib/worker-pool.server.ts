// A small pool of worker threads for CPU work on untrusted input, so that
// work never runs on the request thread and a task over its time budget is
// cut off (its worker is terminated and replaced) instead of holding a core.
//
// Protocol with the worker file: once loaded it posts `{ready: true}`; it then
// receives one task input at a time and answers each with `{ok: true, result}`
// or `{ok: false, error: string}`.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker, type ResourceLimits } from "node:worker_threads";

/**
 * A worker's entry file, `projectPath` from the project root: beside the
 * calling module in the source tree, or under the project root when the
 * caller runs from the bundle in build/server/. Entries are not bundled:
 * worker threads load them by path.
 */
export function workerEntry(callerUrl: string, projectPath: string): URL {
  let dir = path.dirname(fileURLToPath(callerUrl));
  for (let up = 0; up < 6; up++) {
    for (const candidate of [path.join(dir, path.basename(projectPath)), path.join(dir, projectPath)]) {
      if (existsSync(candidate)) return pathToFileURL(candidate);
    }
    dir = path.dirname(dir);
  }
  throw new Error(`${projectPath} not found`);
}

export type WorkerPoolErrorCode = "timeout" | "busy" | "failed";

export class WorkerPoolError extends Error {
  constructor(
    readonly code: WorkerPoolErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "WorkerPoolError";
  }
}

export interface WorkerPoolOptions {
  size: number;
  /** Budget of one task from the moment a worker starts it. */
  taskTimeoutMs: number;
  /** Tasks that may wait for a worker; more are refused with `busy`. */
  maxQueue: number;
  /** Longest wait for a worker (including a worker's start-up). */
  queueTimeoutMs: number;
  resourceLimits?: ResourceLimits;
}

interface Task {
  input: unknown;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  waitTimer?: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  task: Task | null;
  timer?: NodeJS.Timeout;
  /** When the task's budget ends (performance.now()). */
  deadline?: number;
  ready: boolean;
  dead: boolean;
}

type Reply = { ready: true } | { ok: true; result: unknown } | { ok: false; error: string };

export class WorkerPool<I, O> {
  private readonly slots = new Set<Slot>();
  private readonly idle: Slot[] = [];
  private readonly queue: Task[] = [];

  constructor(
    private readonly file: URL,
    private readonly options: WorkerPoolOptions,
  ) {}

  run(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      const task: Task = { input, resolve: resolve as (value: unknown) => void, reject };
      const slot = this.idle.pop();
      if (slot) return this.start(slot, task);
      if (this.queue.length >= this.options.maxQueue) {
        return reject(new WorkerPoolError("busy", "All workers are busy"));
      }
      task.waitTimer = setTimeout(() => {
        const at = this.queue.indexOf(task);
        if (at >= 0) this.queue.splice(at, 1);
        reject(new WorkerPoolError("busy", "No worker became free in time"));
      }, this.options.queueTimeoutMs);
      this.queue.push(task);
      if (this.slots.size < this.options.size) this.spawn();
    });
  }

  /** Terminates every worker; queued tasks are refused. */
  async close(): Promise<void> {
    for (const task of this.queue.splice(0)) {
      clearTimeout(task.waitTimer);
      task.reject(new WorkerPoolError("busy", "The pool is closing"));
    }
    await Promise.all([...this.slots].map((slot) => this.kill(slot, new WorkerPoolError("failed", "The pool is closing"))));
  }

  private spawn(): void {
    const worker = new Worker(this.file, { resourceLimits: this.options.resourceLimits });
    // Idle workers must not keep the process alive.
    worker.unref();
    const slot: Slot = { worker, task: null, ready: false, dead: false };
    this.slots.add(slot);
    worker.on("message", (reply: Reply) => {
      if ("ready" in reply) {
        slot.ready = true;
        return this.release(slot);
      }
      const task = slot.task;
      if (!task) return;
      clearTimeout(slot.timer);
      slot.task = null;
      // A busy event loop can hand us the answer before the budget's timer fires: late is late.
      if (performance.now() > slot.deadline!) task.reject(this.timeoutError());
      else if (reply.ok) task.resolve(reply.result);
      else task.reject(new WorkerPoolError("failed", reply.error));
      this.release(slot);
    });
    // Out of memory, a crash, or a worker file that does not load.
    worker.on("error", (err) => void this.kill(slot, new WorkerPoolError("failed", err.message)));
    worker.on("exit", () => void this.kill(slot, new WorkerPoolError("failed", "The worker exited")));
  }

  private start(slot: Slot, task: Task): void {
    clearTimeout(task.waitTimer);
    slot.task = task;
    slot.deadline = performance.now() + this.options.taskTimeoutMs;
    slot.timer = setTimeout(() => void this.kill(slot, this.timeoutError()), this.options.taskTimeoutMs);
    slot.worker.postMessage(task.input);
  }

  private timeoutError(): WorkerPoolError {
    return new WorkerPoolError("timeout", `The task took longer than ${this.options.taskTimeoutMs} ms`);
  }

  private release(slot: Slot): void {
    if (slot.dead) return;
    const next = this.queue.shift();
    if (next) this.start(slot, next);
    else this.idle.push(slot);
  }

  private async kill(slot: Slot, reason: WorkerPoolError): Promise<void> {
    if (slot.dead) return;
    slot.dead = true;
    clearTimeout(slot.timer);
    this.slots.delete(slot);
    const at = this.idle.indexOf(slot);
    if (at >= 0) this.idle.splice(at, 1);
    slot.task?.reject(reason);
    slot.task = null;
    if (!slot.ready) {
      // A worker that never loaded will not load on a retry either: refuse the waiting tasks instead of respawning in a loop.
      for (const task of this.queue.splice(0)) {
        clearTimeout(task.waitTimer);
        task.reject(reason);
      }
    } else if (this.queue.length > 0 && this.slots.size < this.options.size) {
      // Waiting tasks get a fresh worker in its place.
      this.spawn();
    }
    await slot.worker.terminate();
  }
}
