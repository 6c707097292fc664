// The alert server: the built server with the Shopify app's keys, SMTP_URL pointed at a real SMTP
// server in this process (smtp.ts) and an outbox that polls every 100 ms with retries a thousand
// times faster, as the alert, reminder and click-through files need it. One fixture instead of a
// copy per file; each file adds its own settings (ALERTS_PER_DAY, REMINDER_INTERVAL_MS, …).
import { expect } from "vitest";
import { apiFor, type Api } from "./api.ts";
import { startServer, type TestServer } from "./server.ts";
import { queuedWebhooksDone, webhookRequest } from "./shopify.ts";
import { emailsSettled, startMailSink, type MailSink, type MailSinkOptions } from "./smtp.ts";
import { sql } from "./sql.ts";

export interface AlertServer {
  server: TestServer;
  api: Api;
  /** The SMTP server the app sends to. */
  mail: MailSink;
  /** The app secret webhooks are signed with. */
  secret: string;
  /** Rows of a statement on the server's database. */
  db: <T = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<T[]>;
  /** Until every queued e-mail is sent or failed. */
  emailsSettled: () => Promise<void>;
  /**
   * A webhook as Shopify sends it (shopify.ts `webhookRequest`) to /webhooks/`path`, answered 200 and
   * processed (the answer comes first, the work after it: docs/shopify.md); resolves with the answer's body.
   */
  deliver: (path: string, shop: string, payload: unknown, topic?: string) => Promise<{ ok: boolean; duplicate?: boolean }>;
  stop: () => Promise<void>;
}

export interface AlertServerOptions {
  /** Settings over the alert server's own. */
  env?: Record<string, string>;
  /** How the SMTP server answers (e.g. a mailbox that refuses its first delivery). */
  mail?: MailSinkOptions;
  apiKey?: string;
  secret?: string;
}

export async function startAlertServer(options: AlertServerOptions = {}): Promise<AlertServer> {
  const { apiKey = "test-client-id", secret = "shpss_alert_server_secret" } = options;
  const mail = await startMailSink(options.mail);
  let server: TestServer;
  try {
    server = await startServer({
      SHOPIFY_API_KEY: apiKey,
      SHOPIFY_API_SECRET: secret,
      SMTP_URL: mail.url,
      OUTBOX_POLL_MS: "100",
      OUTBOX_BACKOFF_SCALE: "0.001",
      ...options.env,
    });
  } catch (error) {
    await mail.close();
    throw error;
  }
  const deliver = async (path: string, shop: string, payload: unknown, topic = path) => {
    const res = await fetch(webhookRequest(topic, shop, payload, { appUrl: server.url, path, secret }));
    expect(res.status).toBe(200);
    await queuedWebhooksDone(server.databaseUrl);
    return (await res.json()) as { ok: boolean; duplicate?: boolean };
  };
  return {
    server,
    api: await apiFor(server),
    mail,
    secret,
    db: (text, params = []) => sql(server.databaseUrl, text, params),
    emailsSettled: async () => void (await emailsSettled(server.databaseUrl)),
    deliver,
    stop: async () => {
      await server.stop();
      await mail.close();
    },
  };
}
