// Delivers the outbox (e-mails, webhooks) in the background of every app
// instance. A message is claimed with one conditional update (a 5-minute
// lease), so however many instances poll, each delivery attempt happens
// once; a crashed instance's lease simply runs out. Delivery is
// at-least-once: webhook receivers deduplicate by `webhook-id`.
import { db } from "~/db.server";
import { env } from "~/env.server";
import { log, errorFields } from "~/lib/log.server";
import { FetchError } from "~/lib/net/guarded-fetch.server";
import { basketWebhookTarget } from "~/domains/baskets/baskets.server";
import { postWebhook } from "./webhook.server";

const LEASE_MS = 5 * 60_000;
/** Delay after the 1st…5th failed attempt; the 6th failure is final. */
export const BACKOFF_MS = [30_000, 120_000, 600_000, 3_600_000, 21_600_000] as const;
export const MAX_ATTEMPTS = BACKOFF_MS.length + 1;
const WEBHOOK_TIMEOUT_MS = 10_000;
// Messages per poll, so one poll cannot run for ever behind a long queue.
const BATCH = 50;

/** A failure that retrying cannot fix (malformed message, webhook removed). */
class PermanentFailure extends Error {}

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
  subject: string;
  text: string;
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
      await transporter.sendMail({ from: env.MAIL_FROM, to: mail.to, subject: mail.subject, text: mail.text });
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
  if (typeof p.to !== "string" || typeof p.subject !== "string") {
    throw new PermanentFailure("e-mail payload needs to and subject");
  }
  return { to: p.to, subject: p.subject, text: typeof p.text === "string" ? p.text : "" };
}

// ---------------------------------------------------------------- webhooks

async function deliverWebhook(message: Claimed): Promise<void> {
  const p = (message.payload ?? {}) as Record<string, unknown>;
  if (typeof p.basket_id !== "string" || p.body === undefined) {
    throw new PermanentFailure("webhook payload needs basket_id and body");
  }
  // The basket's current URL and secret: a rotated URL receives pending messages too.
  const target = await basketWebhookTarget(p.basket_id);
  if ("missing" in target) throw new PermanentFailure(target.missing);
  let status: number;
  try {
    ({ status } = await postWebhook({ ...target, id: String(message.id), payload: p.body, timeoutMs: WEBHOOK_TIMEOUT_MS }));
  } catch (err) {
    // The fetch guard refusing the target (private address, port, scheme) will refuse it on every retry too.
    if (err instanceof FetchError && (err.code === "blocked_address" || err.code === "invalid_url")) {
      throw new PermanentFailure(`webhook target refused: ${err.message}`);
    }
    throw err;
  }
  log.info("webhook delivered", { id: message.id, topic: message.topic, status });
}

async function deliver(message: Claimed): Promise<void> {
  if (message.kind === "email") return (await mailTransport()).send(asMail(message.payload));
  if (message.kind === "webhook") return deliverWebhook(message);
  throw new PermanentFailure(`unknown message kind ${message.kind}`);
}

// ---------------------------------------------------------------- claim and record

/** The next due message, leased to this instance; null when none is due. */
async function claimNext(): Promise<Claimed | null> {
  // A lost race means another instance took that one; try the next.
  for (let tries = 0; tries < 5; tries++) {
    const now = new Date();
    const due = await db.outboxMessage.findFirst({
      where: { status: "pending", nextAttemptAt: { lte: now } },
      orderBy: [{ nextAttemptAt: "asc" }, { id: "asc" }],
      select: { id: true, kind: true, topic: true, payload: true, attempts: true },
    });
    if (!due) return null;
    const { count } = await db.outboxMessage.updateMany({
      where: { id: due.id, status: "pending", nextAttemptAt: { lte: now } },
      data: { nextAttemptAt: new Date(now.getTime() + LEASE_MS), attempts: { increment: 1 } },
    });
    // Counting the attempt at claim time means a message that crashes its instance still runs out of attempts.
    if (count === 1) return { ...due, attempts: due.attempts + 1 };
  }
  return null;
}

export function retryDelayMs(attempts: number): number {
  return Math.round(BACKOFF_MS[Math.min(attempts, BACKOFF_MS.length) - 1]! * env.OUTBOX_BACKOFF_SCALE);
}

async function attempt(message: Claimed): Promise<void> {
  try {
    await deliver(message);
    await db.outboxMessage.updateMany({
      where: { id: message.id, status: "pending" },
      data: { status: "sent", sentAt: new Date(), lastError: null },
    });
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
  }
}

// ---------------------------------------------------------------- the loop

let timer: NodeJS.Timeout | null = null;
let running: Promise<void> | null = null;
let stopping = false;

async function drain(): Promise<void> {
  for (let i = 0; i < BATCH && !stopping; i++) {
    const message = await claimNext();
    if (!message) return;
    await attempt(message);
  }
}

/** One pass over the due messages; overlapping calls share the pass in progress. */
export function runOutboxOnce(): Promise<void> {
  return (running ??= drain()
    .catch((err) => log.error("outbox poll failed", errorFields(err)))
    .finally(() => (running = null)));
}

export function startOutboxWorker(): void {
  if (timer) return;
  stopping = false;
  timer = setInterval(() => void runOutboxOnce(), env.OUTBOX_POLL_MS);
  timer.unref();
}

/** Stops polling and waits for the delivery in progress (the rest stays pending for the next start). */
export async function stopOutboxWorker(): Promise<void> {
  stopping = true;
  if (timer) clearInterval(timer);
  timer = null;
  await running;
}
