// A real SMTP server in the test process (smtp-server) that keeps every
// message it receives, decoded as the tests read them: headers, subject, the
// text and the HTML part of nodemailer's MIME output.
import { SMTPServer } from "smtp-server";
import { freePort } from "./net.ts";
import { sql } from "./sql.ts";
import { until } from "./wait.ts";

export interface ReceivedMail {
  to: string;
  headers: Record<string, string>;
  subject: string;
  text: string;
  html: string;
  /** Date.now() when the message was received (set by the sink; order and pacing checks). */
  receivedAt?: number;
}

const qp = (s: string) =>
  Buffer.from(
    s.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
    "latin1",
  ).toString("utf8");

const decodeWords = (s: string) =>
  s.replace(/=\?utf-8\?([QB])\?([^?]*)\?=\s*/gi, (_, enc: string, data: string) =>
    enc.toUpperCase() === "B" ? Buffer.from(data, "base64").toString("utf8") : qp(data.replace(/_/g, " ")),
  );

function headersOf(block: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of block.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const i = line.indexOf(":");
    if (i > 0) out[line.slice(0, i).toLowerCase()] = decodeWords(line.slice(i + 1).trim());
  }
  return out;
}

function decodePart(part: string): { type: string; body: string } {
  const [head, ...rest] = part.split(/\r?\n\r?\n/);
  const h = headersOf(head!);
  const raw = rest.join("\n\n");
  const enc = (h["content-transfer-encoding"] ?? "").toLowerCase();
  const body = enc === "quoted-printable" ? qp(raw) : enc === "base64" ? Buffer.from(raw.replace(/\s+/g, ""), "base64").toString("utf8") : raw;
  return { type: (h["content-type"] ?? "").split(";")[0]!, body };
}

export function parseMail(to: string, raw: string): ReceivedMail {
  const [head] = raw.split(/\r?\n\r?\n/);
  const headers = headersOf(head!);
  const boundary = /boundary="?([^";]+)"?/.exec(headers["content-type"] ?? "")?.[1];
  let text = "";
  let html = "";
  const parts = boundary ? raw.split(`--${boundary}`).slice(1, -1) : [raw];
  for (const part of parts) {
    const { type, body } = decodePart(part.replace(/^\r?\n/, ""));
    if (type === "text/html") html = body;
    else if (type === "text/plain") text = body;
  }
  // Intl writes a no-break space between amount and currency.
  const plain = (s: string) => s.replace(/\u00a0/g, " ");
  return { to, headers, subject: plain(headers.subject ?? ""), text: plain(text), html: plain(html) };
}

export interface MailSink {
  url: string;
  received: ReceivedMail[];
  to: (address: string) => ReceivedMail[];
  close: () => Promise<void>;
}

export interface MailSinkOptions {
  /** Recipients for which a delivery is refused with 451 (a temporary failure the sender retries). */
  refuse?: (address: string) => boolean;
}

/** Starts the SMTP server on a free port of 127.0.0.1; `url` is the server's SMTP_URL. */
export async function startMailSink(options: MailSinkOptions = {}): Promise<MailSink> {
  const port = await freePort();
  const received: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!options.refuse?.(address.address)) return callback();
      const err = new Error("Mailbox busy, try again later") as Error & { responseCode: number };
      err.responseCode = 451;
      callback(err);
    },
    onData(stream, session, callback) {
      let raw = "";
      stream.setEncoding("utf8");
      stream.on("data", (d: string) => (raw += d));
      stream.on("end", () => {
        const receivedAt = Date.now();
        for (const rcpt of session.envelope.rcptTo) received.push({ ...parseMail(rcpt.address, raw), receivedAt });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(port, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    to: (address) => received.filter((m) => m.to === address),
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

/**
 * Every e-mail queued in the outbox of the database at `databaseUrl` was delivered (or gave up): what
 * the SMTP server has is all there will be. (Other kinds, such as Flow triggers without a Shopify
 * session, may stay pending.)
 */
export const emailsSettled = (databaseUrl: string) =>
  until(
    "e-mail outbox settled",
    async () => (await sql<{ n: number }>(databaseUrl, `SELECT COUNT(*) AS n FROM "OutboxMessage" WHERE status = 'pending' AND kind = 'email'`))[0]!.n,
    (n) => Number(n) === 0,
  );
