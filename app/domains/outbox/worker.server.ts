// Delivers the outbox (e-mails, webhooks) in the background of every app
// instance. A message is claimed with one conditional update (a 5-minute
// lease), so however many instances poll, each delivery attempt happens
// once; a crashed instance's lease simply runs out. Delivery is
// at-least-once: webhook receivers deduplicate by `webhook-id`.
//
// Deliveries run concurrently, bounded per target (a webhook host, or the
// e-mail server) and overall, with slots kept for e-mails: a receiver that
// hangs until the timeout holds only its own target's slots, so other
// targets and e-mails go on beside it.
import pLimit, { type LimitFunction } from "p-limit";
import { db } from "~/db.server";
import { env } from "~/env.server";
import { log, errorFields } from "~/lib/log.server";
import { refusedForGood } from "~/lib/net/guarded-fetch.server";
import { postWebhook } from "./webhook.server";

const LEASE_MS = 5 * 60_000;
/** A sent mark still failing this close to the lease's end is given up (logged): another attempt may start. */
const SENT_MARK_MARGIN_MS = 30_000;
/** Delay after the 1st…5th failed attempt; the 6th failure is final. */
export const BACKOFF_MS = [30_000, 120_000, 600_000, 3_600_000, 21_600_000] as const;
export const MAX_ATTEMPTS = BACKOFF_MS.length + 1;
const WEBHOOK_TIMEOUT_MS = 10_000;
// Due messages read per query, and at most per kind and pass, so a long
// queue for busy targets cannot make one pass run for ever.
const PAGE = 50;
const SCAN_LIMIT = 500;

/**
 * Who receives webhook messages, registered by the domain that enqueues them
 * (the outbox knows no business domain): the payload field naming the
 * recipient (`{[field]: id, body}`) and the recipient's current URL and secret.
 */
export interface WebhookRecipients {
  field: string;
  target(id: string): Promise<{ url: string; secret: string } | { missing: string }>;
}

let recipients: WebhookRecipients | null = null;

/**
 * A kind of message a domain delivers itself (e.g. the customer metafield
 * mirror): the outbox claims, retries and records it like any other. Messages
 * of one kind with the same topic are delivered one at a time, so a job may
 * coalesce its topic's pending messages into the one it is delivering.
 */
export interface OutboxJob {
  kind: string;
  /**
   * At most this many of the kind's messages at once, whatever their topics
   * (default: as many as the lane's slots). Work queued behind requests (queued
   * webhooks) keeps to few, so the process's time goes to answering first.
   */
  concurrency?: number;
  deliver(message: { id: number; topic: string; payload: unknown; attempts: number }): Promise<void>;
}

const jobs = new Map<string, OutboxJob>();

export function registerOutboxJob(job: OutboxJob): void {
  jobs.set(job.kind, job);
}

/** A failure that retrying cannot fix (malformed message, webhook removed). Jobs throw it too. */
export class PermanentFailure extends Error {}

interface Due {
  id: number;
  kind: string;
  topic: string;
  payload: unknown;
  attempts: number;
  nextAttemptAt: Date;
}

interface Claimed {
  id: number;
  kind: string;
  topic: string;
  payload: unknown;
  /** Including the attempt being made now. */
  attempts: number;
}

// ---------------------------------------------------------------- e-mail

export interface Mail {
  to: string;
  /** Instead of MAIL_FROM (a shop's sender name before MAIL_FROM's address). */
  from?: string;
  subject: string;
  text: string;
  /** An HTML part beside the text (alert e-mails). */
  html?: string;
  /** Extra headers, e.g. List-Unsubscribe and List-Unsubscribe-Post. */
  headers?: Record<string, string>;
  /** The same on every attempt of one outbox message, so a receiver can drop a copy sent twice. */
  messageId?: string;
}

/**
 * An e-mail as a domain queues it: the recipient and envelope, and its model
 * (which template, the language, the values). The template is rendered when
 * the e-mail is sent, by the renderer the composition root registers
 * (registerMailRenderer): domains hold no markup and no words. A payload with
 * `subject` and `text` (queued before, or by an operator) is sent as it is.
 */
export type QueuedMail = {
  to: string;
  from?: string;
  headers?: Record<string, string>;
  model: MailModel;
};

/** What a template needs: its name, the language, its values (each template's own model type). */
export type MailModel = {
  template: string;
  lang: string;
};

/** Subject, text and HTML of a model; null for a template it does not know (or a model it cannot read). */
export type MailRenderer = (model: MailModel) => { subject: string; text: string; html?: string } | null;

let renderer: MailRenderer | null = null;

export function registerMailRenderer(render: MailRenderer): void {
  renderer = render;
}

/** How e-mails leave: SMTP, or the log in the embedded mode. */
export interface MailTransport {
  send(mail: Mail): Promise<void>;
}

const logTransport: MailTransport = {
  async send(mail) {
    // The payload stays in the outbox, so operators can read the text with `wish outbox`.
    log.info("email", { to: mail.to, subject: mail.subject });
  },
};

async function smtpTransport(smtpUrl: string): Promise<MailTransport> {
  const nodemailer = await import("nodemailer");
  // nodemailer reads options from the URL's query; defaults would let a dead server hold the worker for minutes.
  const url = new URL(smtpUrl);
  for (const [name, ms] of [["connectionTimeout", 10_000], ["greetingTimeout", 10_000], ["socketTimeout", 30_000]] as const) {
    if (!url.searchParams.has(name)) url.searchParams.set(name, String(ms));
  }
  const transporter = nodemailer.createTransport(url.toString());
  return {
    async send(mail) {
      try {
        await transporter.sendMail({
          from: mail.from ?? env.MAIL_FROM,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          ...(mail.html ? { html: mail.html } : {}),
          ...(mail.headers ? { headers: mail.headers } : {}),
          ...(mail.messageId ? { messageId: mail.messageId } : {}),
        });
      } catch (err) {
        // 5xx is the server's final word (unknown mailbox, policy): asking again gets the same answer.
        const code = (err as { responseCode?: unknown }).responseCode;
        if (typeof code === "number" && code >= 500 && code < 600) {
          throw new PermanentFailure(`refused by the mail server: ${String((err as { response?: unknown }).response ?? code).slice(0, 300)}`);
        }
        throw err;
      }
    },
  };
}

let transport: Promise<MailTransport> | undefined;
function mailTransport(): Promise<MailTransport> {
  if (!env.SMTP_URL) return Promise.resolve(logTransport);
  // A failed setup is not cached, so the next attempt tries again.
  return (transport ??= smtpTransport(env.SMTP_URL).catch((err) => {
    transport = undefined;
    throw err;
  }));
}

function asMail(payload: unknown): Mail {
  const p = (payload ?? {}) as Record<string, unknown>;
  if (typeof p.to === "string" && p.model && typeof p.model === "object" && typeof (p.model as MailModel).template === "string") {
    // Not registered yet (a process still starting): an ordinary failure, tried again later.
    if (!renderer) throw new Error("no e-mail renderer registered");
    const rendered = renderer(p.model as MailModel);
    if (!rendered) throw new PermanentFailure(`unknown e-mail template ${(p.model as MailModel).template}`);
    return asMail({ ...p, model: undefined, ...rendered });
  }
  if (typeof p.to !== "string" || typeof p.subject !== "string") {
    throw new PermanentFailure("e-mail payload needs to and subject");
  }
  const headers =
    p.headers && typeof p.headers === "object" && Object.values(p.headers).every((v) => typeof v === "string")
      ? (p.headers as Record<string, string>)
      : undefined;
  return {
    to: p.to,
    subject: p.subject,
    text: typeof p.text === "string" ? p.text : "",
    ...(typeof p.from === "string" ? { from: p.from } : {}),
    ...(typeof p.html === "string" ? { html: p.html } : {}),
    ...(headers ? { headers } : {}),
  };
}

// ---------------------------------------------------------------- webhooks

async function deliverWebhook(message: Claimed): Promise<void> {
  const p = (message.payload ?? {}) as Record<string, unknown>;
  const field = recipients!.field;
  if (typeof p[field] !== "string" || p.body === undefined) {
    throw new PermanentFailure(`webhook payload needs ${field} and body`);
  }
  // The recipient's current URL and secret: a rotated URL receives pending messages too.
  const target = await recipients!.target(p[field]);
  if ("missing" in target) throw new PermanentFailure(target.missing);
  let status: number;
  try {
    ({ status } = await postWebhook({ ...target, id: String(message.id), payload: p.body, timeoutMs: WEBHOOK_TIMEOUT_MS }));
  } catch (err) {
    throw refusedForGood(err) ? new PermanentFailure(`webhook target refused: ${err.message}`) : err;
  }
  log.info("webhook delivered", { id: message.id, topic: message.topic, status });
}

async function deliver(message: Claimed): Promise<void> {
  if (message.kind === "email") {
    return (await mailTransport()).send({ ...asMail(message.payload), messageId: `<outbox-${message.id}@${new URL(env.APP_URL).hostname}>` });
  }
  if (message.kind === "webhook") return deliverWebhook(message);
  const job = jobs.get(message.kind);
  if (job) return job.deliver(message);
  throw new PermanentFailure(`unknown message kind ${message.kind}`);
}

// ---------------------------------------------------------------- claim and record

/** Leases a due message to this instance; null when another instance took it first. */
async function claim(message: Due): Promise<Claimed | null> {
  const now = new Date();
  // Counting the attempt at claim time means a message that crashes its instance still runs out of attempts.
  const { count } = await db.outboxMessage.updateMany({
    where: { id: message.id, status: "pending", attempts: message.attempts, nextAttemptAt: { lte: now } },
    data: { nextAttemptAt: new Date(now.getTime() + LEASE_MS), attempts: { increment: 1 } },
  });
  if (count !== 1) return null;
  return { id: message.id, kind: message.kind, topic: message.topic, payload: message.payload, attempts: message.attempts + 1 };
}

export function retryDelayMs(attempts: number): number {
  return Math.round(BACKOFF_MS[Math.min(attempts, BACKOFF_MS.length) - 1]! * env.OUTBOX_BACKOFF_SCALE);
}

async function attempt(message: Claimed): Promise<void> {
  try {
    await deliver(message);
  } catch (err) {
    const lastError = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
    const final = err instanceof PermanentFailure || message.attempts >= MAX_ATTEMPTS;
    log.warn(final ? "outbox message failed" : "outbox delivery failed, will retry", {
      id: message.id,
      kind: message.kind,
      topic: message.topic,
      attempts: message.attempts,
      error: lastError,
    });
    await db.outboxMessage.updateMany({
      where: { id: message.id, status: "pending" },
      data: final
        ? { status: "failed", lastError }
        : { lastError, nextAttemptAt: new Date(Date.now() + retryDelayMs(message.attempts)) },
    });
    return;
  }
  await recordSent(message);
}

/**
 * The message went out; its mark must stick, or it goes out again when its
 * lease ends (an e-mail twice after a database stall). So a failed mark is
 * not a failed delivery: it is retried, backing off, for as long as the lease
 * keeps other attempts away. Only a process that dies before the mark sticks
 * sends the message again (e-mails then carry the same Message-ID).
 */
async function recordSent(message: Claimed): Promise<void> {
  const giveUpAt = Date.now() + LEASE_MS - SENT_MARK_MARGIN_MS;
  for (let wait = 200; ; wait = Math.min(wait * 2, 5000)) {
    try {
      await db.outboxMessage.updateMany({
        where: { id: message.id, status: "pending" },
        data: { status: "sent", sentAt: new Date(), lastError: null },
      });
      return;
    } catch (err) {
      if (Date.now() + wait > giveUpAt) throw err;
      log.warn("outbox sent mark failed, will retry", { id: message.id, kind: message.kind, ...errorFields(err) });
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

// ---------------------------------------------------------------- slots

const EMAIL_TARGET = "email";
// E-mails have their own lane, so webhooks can never take all the slots.
const emailLane = pLimit(env.OUTBOX_CONCURRENCY_PER_TARGET);
const webhookLane = pLimit(env.OUTBOX_CONCURRENCY - env.OUTBOX_CONCURRENCY_PER_TARGET);
/** Webhook hosts and job topics with deliveries in flight (idle ones are dropped at the start of each pass). */
const webhookTargets = new Map<string, LimitFunction>();
/** Deliveries in flight by message id: skipped by the scan, awaited by a shutdown. */
const inFlight = new Map<number, Promise<void>>();
/** Deliveries in flight by job kind (for OutboxJob.concurrency). */
const kindsInFlight = new Map<string, number>();
const kindFull = (kind: string) => {
  const cap = jobs.get(kind)?.concurrency;
  return cap !== undefined && (kindsInFlight.get(kind) ?? 0) >= cap;
};

const busy = (limit: LimitFunction | undefined) => (limit ? limit.activeCount + limit.pendingCount : 0);
const laneOf = (target: string) => (target === EMAIL_TARGET ? emailLane : webhookLane);

const JOB_TARGET = "job:";
/** A job's topic takes one delivery at a time; a webhook host OUTBOX_CONCURRENCY_PER_TARGET. */
const targetConcurrency = (target: string) => (target.startsWith(JOB_TARGET) ? 1 : env.OUTBOX_CONCURRENCY_PER_TARGET);

function hasRoom(target: string): boolean {
  const lane = laneOf(target);
  if (busy(lane) >= lane.concurrency) return false;
  return target === EMAIL_TARGET || busy(webhookTargets.get(target)) < targetConcurrency(target);
}

/** Starts one delivery in a free slot of its target (hasRoom said yes, so nothing queues). */
function start(message: Due, target: string): void {
  let work = async () => {
    const claimed = await claim(message);
    if (claimed) await attempt(claimed);
  };
  if (target !== EMAIL_TARGET) {
    let perTarget = webhookTargets.get(target);
    if (!perTarget) webhookTargets.set(target, (perTarget = pLimit(targetConcurrency(target))));
    const limited = perTarget;
    const inner = work;
    work = () => limited(inner);
  }
  kindsInFlight.set(message.kind, (kindsInFlight.get(message.kind) ?? 0) + 1);
  const delivery = laneOf(target)(work)
    .catch((err) => log.error("outbox delivery crashed", { id: message.id, ...errorFields(err) }))
    .finally(() => {
      inFlight.delete(message.id);
      kindsInFlight.set(message.kind, kindsInFlight.get(message.kind)! - 1);
      // A freed slot may take the next due message at once, not at the next poll.
      if (!stopping) void runOutboxOnce();
    });
  inFlight.set(message.id, delivery);
}

/**
 * Where a webhook goes, by host: one receiver's slots whatever recipients
 * point at it. Messages whose recipient or URL is unusable share one target; their
 * delivery fails at once.
 */
async function webhookTarget(payload: unknown, known: Map<string, string>): Promise<string> {
  const recipientId = (payload as Record<string, unknown> | null)?.[recipients!.field];
  if (typeof recipientId !== "string") return "webhook:unusable";
  let target = known.get(recipientId);
  if (target === undefined) {
    const found = await recipients!.target(recipientId);
    target = "missing" in found ? "webhook:unusable" : webhookHost(found.url);
    known.set(recipientId, target);
  }
  return target;
}

function webhookHost(url: string): string {
  try {
    return `webhook:${new URL(url).host.toLowerCase()}`;
  } catch {
    return "webhook:unusable";
  }
}

// ---------------------------------------------------------------- the loop

let timer: NodeJS.Timeout | null = null;
let running: Promise<void> | null = null;
let again = false;
let stopping = false;

/**
 * Fills the free slots from the due messages of one kind, oldest first,
 * passing over messages whose target is busy.
 */
async function fillLane(emails: boolean): Promise<void> {
  // Without registered recipients and jobs (a process that only drains e-mail) the other messages stay pending.
  if (!emails && !recipients && jobs.size === 0) return;
  const lane = emails ? emailLane : webhookLane;
  const known = new Map<string, string>();
  let after: { at: Date; id: number } | null = null;
  for (let scanned = 0; scanned < SCAN_LIMIT && !stopping && busy(lane) < lane.concurrency; ) {
    // Kinds at their own bound are not read at all: a long queue of one kind costs a pass nothing.
    const full = emails ? [] : [...jobs.keys()].filter(kindFull);
    const page: Due[] = await db.outboxMessage.findMany({
      where: {
        status: "pending",
        nextAttemptAt: { lte: new Date() },
        kind: emails ? EMAIL_TARGET : { notIn: [EMAIL_TARGET, ...full] },
        ...(after && { OR: [{ nextAttemptAt: { gt: after.at } }, { nextAttemptAt: after.at, id: { gt: after.id } }] }),
      },
      orderBy: [{ nextAttemptAt: "asc" }, { id: "asc" }],
      take: PAGE,
      select: { id: true, kind: true, topic: true, payload: true, attempts: true, nextAttemptAt: true },
    });
    for (const message of page) {
      if (stopping || busy(lane) >= lane.concurrency) return;
      if (inFlight.has(message.id)) continue;
      if (message.kind === "webhook" && !recipients) continue;
      if (kindFull(message.kind)) continue;
      const target =
        message.kind === "webhook"
          ? await webhookTarget(message.payload, known)
          : message.kind === "email"
            ? EMAIL_TARGET
            : jobs.has(message.kind)
              ? `${JOB_TARGET}${message.kind}:${message.topic}`
              : "unknown";
      if (hasRoom(target)) start(message, target);
    }
    if (page.length < PAGE) return;
    scanned += page.length;
    const last = page[page.length - 1]!;
    after = { at: last.nextAttemptAt, id: last.id };
  }
}

async function fill(): Promise<void> {
  for (const [target, limit] of webhookTargets) if (busy(limit) === 0) webhookTargets.delete(target);
  await fillLane(true);
  await fillLane(false);
}

/**
 * One pass over the due messages: starts what the free slots take, without
 * waiting for the deliveries. Overlapping calls share the pass in progress,
 * which then looks once more.
 */
export function runOutboxOnce(): Promise<void> {
  if (running) {
    again = true;
    return running;
  }
  return (running = (async () => {
    do {
      again = false;
      await fill();
    } while (again && !stopping);
  })()
    .catch((err) => log.error("outbox poll failed", errorFields(err)))
    .finally(() => (running = null)));
}

/**
 * A pass now, if this process runs the outbox (holds the lease); elsewhere
 * the holder's next poll finds the message. For work queued to run right
 * after an answer (queued webhooks).
 */
export function nudgeOutbox(): void {
  if (timer && !stopping) void runOutboxOnce();
}

/** Resolves once no delivery is in flight. */
async function outboxIdle(): Promise<void> {
  while (inFlight.size) await Promise.all(inFlight.values());
}

export function startOutboxWorker(webhooks: WebhookRecipients): void {
  recipients = webhooks;
  if (timer) return;
  stopping = false;
  timer = setInterval(() => void runOutboxOnce(), env.OUTBOX_POLL_MS);
  timer.unref();
}

/** Stops polling and waits for the deliveries in flight (the rest stays pending for the next start). */
export async function stopOutboxWorker(): Promise<void> {
  stopping = true;
  if (timer) clearInterval(timer);
  timer = null;
  await running;
  await outboxIdle();
}
