// Configuration, parsed once at boot. A bad value stops the process with a
// message naming the variable; everything has a safe embedded default.
import { availableParallelism } from "node:os";
import ipaddr from "ipaddr.js";
import { z } from "zod";

const optionalUrl = z.string().url().optional();

/** Express's names for address ranges (proxy-addr), accepted in TRUSTED_PROXIES. */
const PROXY_RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);
/** PostgreSQL: each worker's change listener, health check connection and a pool of at least one. */
const CONNECTIONS_PER_WORKER_AT_LEAST = 3;

/**
 * TRUSTED_PROXIES: unset = trust no proxy (the client is the connection's
 * peer and X-Forwarded-* are ignored); a number = that many proxy hops in
 * front of the app; else a comma-separated list of proxy addresses or CIDR
 * ranges (or loopback, linklocal, uniquelocal). Express's `trust proxy` setting.
 */
const trustedProxies = z
  .string()
  .optional()
  .transform((value, ctx): false | number | string[] => {
    const text = value?.trim() ?? "";
    if (!text) return false;
    if (/^\d+$/.test(text)) return Number(text);
    const entries = text.split(",").map((e) => e.trim()).filter(Boolean);
    for (const entry of entries) {
      const valid = PROXY_RANGE_NAMES.has(entry) || ipaddr.isValid(entry) || isCidr(entry);
      if (!valid) ctx.addIssue({ code: "custom", message: `${JSON.stringify(entry)} is not an address, CIDR range or hop count` });
    }
    return entries;
  });

function isCidr(value: string): boolean {
  try {
    ipaddr.parseCIDR(value);
    return true;
  } catch {
    return false;
  }
}

const variables = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  // Without a trailing slash, so `${env.APP_URL}/path` is always one slash.
  APP_URL: z
    .string()
    .url()
    .default("http://localhost:3000")
    .transform((url) => url.replace(/\/+$/, "")),
  HOST: z.string().min(1).default("127.0.0.1"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: z
    .string()
    .regex(/^(file:|postgres(ql)?:\/\/)/, "must start with file: (SQLite) or postgresql:// (PostgreSQL)")
    .default("file:./data/wishlist.db"),
  /** Where the embedded mode keeps files (uploaded and copied images). */
  DATA_DIR: z.string().min(1).default("./data"),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  /** Largest accepted request body; larger ones get 413 payload_too_large. */
  MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  /** Largest body of a page's form post or other request outside /api/v1 (My lists, share pages, /auth/login, the admin, /session/*). */
  PAGE_MAX_BODY_BYTES: z.coerce.number().int().min(1024).max(64 * 1024 * 1024).default(64 * 1024),
  /** Largest Shopify webhook body (/webhooks/*), refused before the HMAC check; see docs/operations.md "Request limits". */
  WEBHOOK_MAX_BODY_BYTES: z.coerce.number().int().min(64 * 1024).max(256 * 1024 * 1024).default(5 * 1024 * 1024),
  /** Time a client has to send a request's headers (slow-header connections get 408 and are closed). */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(20_000),
  /** Time a client has to send a whole request, body included (at least HTTP_HEADERS_TIMEOUT_MS; long enough for a 200 MiB media upload in one PUT). */
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(300_000),
  /** How long an idle keep-alive connection stays open (above a load balancer's idle timeout, e.g. 60 s). */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(65_000),
  /**
   * Requests per keep-alive connection; the last answer carries `Connection: close`, so clients
   * reconnect and the cluster spreads them again (a restarted worker gets its share). 0 = no limit.
   */
  HTTP_MAX_REQUESTS_PER_CONNECTION: z.coerce.number().int().min(0).max(1_000_000).default(100),
  /** On SIGTERM/SIGINT: how long requests in flight may take to finish before their connections are cut. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(15_000),
  /** Open connections per process; more are closed at once. Keep it below the open-files limit (ulimit -n). */
  MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  /** Open connections per client address and process (0 = no cap); trusted proxies (TRUSTED_PROXIES) are exempt. */
  MAX_CONNECTIONS_PER_CLIENT: z.coerce.number().int().min(0).max(1_000_000).default(256),
  /**
   * Requests one worker answers at once; past it a request gets 503
   * `service_unavailable` with Retry-After at once (/health and share pages are not counted).
   */
  MAX_REQUESTS_IN_FLIGHT: z.coerce.number().int().min(1).max(100_000).default(128),
  /**
   * PostgreSQL: the longest a new request should wait for a pooled connection;
   * while the pool's queue would keep it longer, new requests get the same 503
   * at once, before they take a place.
   */
  DATABASE_QUEUE_WAIT_MS: z.coerce.number().int().min(1).max(600_000).default(1000),
  /** URLs per sitemap file (the sitemap protocol's maximum, 50,000); tests use a small number. */
  SITEMAP_URLS_PER_FILE: z.coerce.number().int().min(1).max(50_000).default(50_000),

  /** Secrets: generated on first start and stored in the database when unset. */
  ANON_KEY: z.string().min(16).optional(),
  JWT_PRIVATE_KEY: z.string().includes("PRIVATE KEY", { message: "must be a PKCS#8 PEM" }).optional(),
  ENCRYPTION_KEY: z.string().regex(/^[A-Za-z0-9+/_-]{43}=?$/, "must be 32 bytes, base64").optional(),

  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  AUTH_AUDIENCE: z.string().min(1).default("authenticated"),

  /** Trust user tokens from an external issuer too (all three or none). */
  AUTH_EXTERNAL_JWKS_URL: optionalUrl,
  AUTH_EXTERNAL_ISSUER: z.string().min(1).optional(),
  AUTH_EXTERNAL_AUDIENCE: z.string().min(1).optional(),

  /** Where copied product images go: the local DATA_DIR, or an S3-compatible bucket. */
  STORAGE_DRIVER: z.enum(["local", "s3"]).default("local"),
  S3_ENDPOINT: optionalUrl,
  S3_REGION: z.string().min(1).default("auto"),
  S3_BUCKET: z.string().min(1).optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Public base URL of the bucket's objects (e.g. a CDN); images are linked there. */
  S3_PUBLIC_URL: optionalUrl,

  /** Creator media uploads (SPEC 8.4): largest image and video, in bytes (defaults 10 MiB and 200 MiB). */
  MEDIA_MAX_IMAGE_BYTES: z.coerce.number().int().min(1).max(2 ** 31 - 1).default(10 * 1024 * 1024),
  MEDIA_MAX_VIDEO_BYTES: z.coerce.number().int().min(1).max(2 ** 31 - 1).default(200 * 1024 * 1024),
  /** Size of each chunk of a chunked upload but the last (at least 5 MiB with the s3 driver: multipart part size). */
  MEDIA_CHUNK_BYTES: z.coerce.number().int().min(1024).max(64 * 1024 * 1024).default(8 * 1024 * 1024),

  /**
   * TEST ONLY. Comma-separated host:port pairs that outbound fetches of
   * user-supplied URLs may reach although they are private or loopback.
   * Never set in production.
   */
  FETCH_TEST_ALLOW_HOSTS: z.string().optional(),
  /**
   * TEST ONLY. "1": every JSON success answer of the API is checked against
   * its route's declared response schema, and a mismatch is logged as
   * "undocumented response" (the test support fails on that line).
   */
  /**
   * TEST ONLY. scrypt's cost N for new password hashes, a power of two from
   * 1024 up to the default 32768 (what production uses: 32 MiB and ~75 ms of
   * CPU per hash). The test suite hashes hundreds of passwords; stored hashes
   * name their own N, so verification never depends on this. Never set in production.
   */
  PASSWORD_TEST_SCRYPT_N: z.coerce
    .number()
    .int()
    .min(1024)
    .max(32768)
    .refine((n) => (n & (n - 1)) === 0, "must be a power of two")
    .default(32768),
  CHECK_RESPONSES: z
    .enum(["0", "1"])
    .default("0")
    .transform((v) => v === "1"),
  /** Worker threads that read scraped pages (default: cores - 1, between 1 and 4). */
  SCRAPE_WORKERS: z.coerce.number().int().min(1).max(32).optional(),
  /** Time budget for reading one scraped page in a worker; over it, the worker is replaced and the scrape fails. */
  SCRAPE_TIMEOUT_MS: z.coerce.number().int().min(1).max(60_000).default(3000),
  /** Items one list import or re-sync reads from the page; the rest of a longer list is left out, and the response says how many. */
  IMPORT_MAX_ITEMS: z.coerce.number().int().min(1).max(10_000).default(200),
  /** Outbound fetches (image copies) one list import or re-sync makes; items past it keep the page's image address. */
  IMPORT_MAX_FETCHES: z.coerce.number().int().min(0).max(10_000).default(100),
  /** Of those fetches, at most this many at once (also the items saved at once). */
  IMPORT_FETCH_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),

  /** How often per-key request counts are written to the database (SPEC 8.3 headers). */
  REQUEST_COUNTER_FLUSH_MS: z.coerce.number().int().min(50).max(600_000).default(2000),
  /** Saves counted as actions per partner, saver and hour; beyond it saves succeed uncounted. */
  SAVES_PER_USER: z.coerce.number().int().min(1).max(1_000_000).default(20),
  /** Saves counted as actions per partner, client address (IPv4, IPv6 /64) and hour, whatever accounts it uses. */
  SAVES_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(30),
  /**
   * On plans that pause at their limit (Free), saves counted per month: per partner and shopper account,
   * per shopper account over all such partners, and per partner and client address, so that a few
   * addresses or accounts cannot use up a shop's month.
   */
  SAVES_PER_SHOPPER_MONTH: z.coerce.number().int().min(1).max(1_000_000).default(20),
  SAVES_PER_ACCOUNT_MONTH: z.coerce.number().int().min(1).max(1_000_000).default(60),
  SAVES_PER_ADDRESS_MONTH: z.coerce.number().int().min(1).max(1_000_000).default(10),
  /** How often old request-counter minute windows and usage dedup keys are pruned. */
  PRUNE_INTERVAL_MS: z.coerce.number().int().min(50).max(3_600_000).default(60_000),
  /** How often the outbox worker looks for e-mails and webhooks to deliver. */
  OUTBOX_POLL_MS: z.coerce.number().int().min(50).max(600_000).default(2000),
  /** Outbox deliveries at once per deployment; OUTBOX_CONCURRENCY_PER_TARGET of them are kept for e-mails. */
  OUTBOX_CONCURRENCY: z.coerce.number().int().min(2).max(200).default(10),
  /** Outbox deliveries at once to one target: a webhook host, or the e-mail server. */
  OUTBOX_CONCURRENCY_PER_TARGET: z.coerce.number().int().min(1).max(100).default(2),
  /** TEST ONLY: multiplies the outbox retry delays (0.001 turns 30 s into 30 ms). */
  OUTBOX_BACKOFF_SCALE: z.coerce.number().positive().max(1).default(1),
  /**
   * Share pages and link previews behind a CDN (docs/operations.md "Running behind a CDN"):
   * how long a shared cache keeps a public share page or preview document (s-maxage), and how
   * long it may serve it stale while it revalidates (stale-while-revalidate). Browsers keep none.
   */
  CDN_SHARED_MAX_AGE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  CDN_STALE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  /**
   * Optional purge hook: on every change that affects a share page or preview, the outbox POSTs
   * `{"tags": [...]}` (also as a space-separated `Surrogate-Key` header) to this URL, with
   * CDN_PURGE_TOKEN in CDN_PURGE_AUTH_HEADER (`Authorization: Bearer <token>` by default). Unset = off.
   */
  CDN_PURGE_URL: z.string().url().regex(/^https?:\/\//i, "must be an http(s) URL").optional(),
  CDN_PURGE_TOKEN: z.string().min(1).optional(),
  CDN_PURGE_AUTH_HEADER: z.string().regex(/^[A-Za-z0-9-]+$/, "must be a header name").default("Authorization"),
  /** SMTP for e-mails (smtp://user:pass@host:587); unset = e-mails go to the log (embedded mode). */
  SMTP_URL: z.string().regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL").optional(),
  MAIL_FROM: z.string().default("Wishlist <no-reply@localhost>"),
  /** Alert e-mails (price drop, back in stock, low stock) one shopper gets per UTC day at most. */
  ALERTS_PER_DAY: z.coerce.number().int().min(1).max(100).default(3),
  /**
   * Alert e-mails one shop sends per minute at most (docs/alerts.md "Fan-out"): a price drop on a product
   * thousands saved is queued at once but spread over send slots this far apart, so other shops' e-mails
   * go out beside it. 1 to 60,000 (1,000 a second); the default, 600 (10 a second), keeps one shop
   * well below what the outbox's e-mail slots send.
   */
  ALERT_EMAILS_PER_SHOP_PER_MINUTE: z.coerce.number().int().min(1).max(60_000).default(600),
  /** Savers read and e-mails queued per transaction of a fan-out (docs/alerts.md "Fan-out"). */
  ALERT_FANOUT_BATCH: z.coerce.number().int().min(1).max(5000).default(500),
  /** E-mails to one typed address per UTC day, across all accounts (alert confirmation, password recovery, change of e-mail). */
  EMAILS_PER_RECIPIENT_PER_DAY: z.coerce.number().int().min(1).max(1000).default(5),
  /** E-mails to typed addresses one client address unit (IPv4 address, IPv6 /64) may cause per UTC day. */
  EMAILS_PER_CLIENT_PER_DAY: z.coerce.number().int().min(1).max(1_000_000).default(50),
  /** How often the background worker looks for reminder digests that are due (docs/alerts.md). */
  REMINDER_INTERVAL_MS: z.coerce.number().int().min(50).max(86_400_000).default(3_600_000),
  /** How often the scheduled re-read of saved products of no installed shop looks for due products (alerts on scraped pages). */
  RESCRAPE_TICK_MS: z.coerce.number().int().min(50).max(86_400_000).default(60_000),
  /** Products re-read per tick at most; 0 turns the scheduled re-read off. */
  RESCRAPE_PER_TICK: z.coerce.number().int().min(0).max(1000).default(20),
  /** A product is re-read at most once per this interval. */
  RESCRAPE_INTERVAL_MS: z.coerce.number().int().min(1000).max(30 * 86_400_000).default(86_400_000),
  /** Re-reads of one host per UTC day at most (all its products together). */
  RESCRAPE_HOST_DAILY_CAP: z.coerce.number().int().min(1).max(100_000).default(200),
  /** Failed reads in a row after which a product is given up on until it is newly saved to a list. */
  RESCRAPE_MAX_FAILURES: z.coerce.number().int().min(1).max(20).default(5),
  /** Scraped products enrolled for the scheduled re-read per shopper who would be told (the rest wait until one of theirs leaves). */
  RESCRAPE_PRODUCTS_PER_SHOPPER: z.coerce.number().int().min(1).max(100_000).default(50),

  /** Which proxies may name the client in X-Forwarded-For (see trustedProxies above). */
  TRUSTED_PROXIES: trustedProxies,
  /** How often each instance asks the database for revoked keys and sign-in sessions. */
  REVOCATION_POLL_MS: z.coerce.number().int().min(50).max(600_000).default(1000),
  /** How long a discover ranking (trending, curated lists, seasonal) is kept in memory per process; 0 = computed per request. */
  DISCOVER_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  /**
   * How long an instance keeps a public key's configuration (allow-list,
   * partner plan, shops, basket) before reading it again: the bound for
   * changes made by another instance or the CLI. 0 = no cache.
   */
  CONFIG_CACHE_TTL_MS: z.coerce.number().int().min(0).max(600_000).default(2000),

  /**
   * Longest wait for the database before a request gives up with 503
   * `service_unavailable`: PostgreSQL: a pooled connection (waiting for a free
   * one or opening one); SQLite: another process's write lock (busy timeout).
   */
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
  /** PostgreSQL: longest statement (server-side statement_timeout; the client stops waiting shortly after). */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
  /**
   * PostgreSQL: the most connections one instance opens, all its workers and
   * their change listeners together (divided evenly among the workers).
   * Default: 20, or 2 per worker if that is more.
   */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(CONNECTIONS_PER_WORKER_AT_LEAST).max(10_000).optional(),
  /**
   * PostgreSQL: a URL to the database itself, for what a transaction-mode
   * pooler (PgBouncer) in DATABASE_URL cannot carry: the change listener
   * (LISTEN) and the migrations' advisory lock. Unset = DATABASE_URL.
   */
  DATABASE_DIRECT_URL: z.string().regex(/^postgres(ql)?:\/\//, "must be a postgresql:// URL").optional(),
  /**
   * PostgreSQL: a streaming read replica (hot standby) of DATABASE_URL's
   * database for the public reads (share pages, public list JSON, link
   * previews, heart state, discover), within DATABASE_REPLICA_MAX_LAG_MS;
   * everything else, and every read the replica cannot answer in time,
   * goes to DATABASE_URL. Unset = no replica (docs/operations.md "With a read replica").
   */
  DATABASE_REPLICA_URL: z.string().regex(/^postgres(ql)?:\/\//, "must be a postgresql:// URL").optional(),
  /** The replica is read only while it is at most this far behind the primary (ms); further behind, the primary answers. */
  DATABASE_REPLICA_MAX_LAG_MS: z.coerce.number().int().min(100).max(600_000).default(2000),
  /** How long one measurement of the replica's lag is trusted before it is taken again (ms). */
  DATABASE_REPLICA_CHECK_MS: z.coerce.number().int().min(50).max(600_000).default(1000),
  /** PostgreSQL: name the hot statements (parsed once per connection); false behind a pooler without prepared-statement support. */
  DATABASE_PREPARED_STATEMENTS: z.enum(["true", "false", "1", "0"]).default("true").transform((v) => v === "true" || v === "1"),
  /** Time /health gives the database to answer before it reports `checks.database: "down"`. */
  DATABASE_HEALTH_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(1000),

  /** Worker processes serving on one port (node:cluster); 1 = a single process, no cluster. */
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(availableParallelism()),
  /**
   * Lease of the deployment-wide jobs (pruning, outbox): a crashed holder's
   * lease runs out after this long; holders renew, and others try to take it, every third of it.
   */
  JOB_LEASE_TTL_MS: z.coerce.number().int().min(300).max(600_000).default(30_000),

  /** Key for the internal account-migration routes (`x-service-key` header); unset disables them. */
  SERVICE_KEY: z.string().min(24).optional(),

  /**
   * Origins besides APP_URL's whose pages may post `POST /analytics/track`
   * (comma-separated, e.g. https://sdk.example.com); every other origin gets 403.
   */
  ANALYTICS_ALLOWED_ORIGINS: z.string().optional(),
  /** Analytics events recorded per client address (IPv4, IPv6 /64) and minute, and per UTC day; beyond them events are accepted and dropped. */
  ANALYTICS_EVENTS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(60),
  ANALYTICS_EVENTS_PER_DAY: z.coerce.number().int().min(1).max(10_000_000).default(2000),
  /** Image proxy: largest image passed through (bytes) and the in-memory cache of recent images (bytes in all). */
  IMAGE_PROXY_MAX_BYTES: z.coerce.number().int().min(1024).max(50_000_000).default(5_000_000),
  IMAGE_PROXY_CACHE_BYTES: z.coerce.number().int().min(0).max(1_000_000_000).default(32_000_000),
  /**
   * Largest image by pixels (width × height) that is ever decoded or passed
   * on: product image copies, preview cards, creator images, the image
   * proxy. A small file can describe a huge bitmap; the header says which.
   */
  IMAGE_MAX_PIXELS: z.coerce.number().int().min(1_000_000).max(268_402_689).default(40_000_000),
  /** Longest side of stored product images: larger ones are scaled down to it when copied. */
  IMAGE_MAX_SIDE: z.coerce.number().int().min(256).max(8192).default(1600),

  /** Shopify features switch on when key and secret are set. */
  SHOPIFY_API_KEY: z.string().min(1).optional(),
  SHOPIFY_API_SECRET: z.string().min(1).optional(),
  SCOPES: z.string().default("read_products,write_metafields,read_orders,write_app_proxy,write_customers,read_inventory"),
  SHOP_CUSTOM_DOMAIN: z.string().optional(),
  /**
   * Billing API charges are test charges (no money moves; development stores
   * need them). Default: true unless NODE_ENV=production.
   */
  SHOPIFY_BILLING_TEST: z.enum(["true", "false", "1", "0"]).optional(),

  /**
   * The demo shop page `/demo` (a shop page with the real save button, for a
   * first look at a local installation). Default: on when APP_URL's host is
   * localhost (the local default), off everywhere else.
   */
  DEMO_PAGE: z.enum(["true", "false", "1", "0"]).optional(),
  /**
   * The admin preview `/app/preview` (the embedded admin in a plain browser
   * for the demo shop, docs/shopify.md "Preview the admin locally"). Only a
   * local installation may have it: APP_URL on localhost and HOST a loopback
   * address. Default: on there; `false` switches it off; `true` anywhere
   * else stops the boot.
   */
  ADMIN_PREVIEW: z.enum(["true", "false", "1", "0"]).optional(),
});

/** Every variable the service reads (docs/configuration.md lists each; tests/unit/configuration-docs.test.ts). */
export const ENV_VARIABLE_NAMES = Object.keys(variables.shape);

const schema = variables
  .superRefine((env, ctx) => {
    const external = [env.AUTH_EXTERNAL_JWKS_URL, env.AUTH_EXTERNAL_ISSUER, env.AUTH_EXTERNAL_AUDIENCE];
    if (external.some(Boolean) && !external.every(Boolean)) {
      ctx.addIssue({
        code: "custom",
        path: ["AUTH_EXTERNAL_JWKS_URL"],
        message: "AUTH_EXTERNAL_JWKS_URL, AUTH_EXTERNAL_ISSUER and AUTH_EXTERNAL_AUDIENCE go together",
      });
    }
    if (env.STORAGE_DRIVER === "s3") {
      for (const name of ["S3_ENDPOINT", "S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "S3_PUBLIC_URL"] as const) {
        if (!env[name]) ctx.addIssue({ code: "custom", path: [name], message: `${name} is required when STORAGE_DRIVER=s3` });
      }
      if (env.MEDIA_CHUNK_BYTES < 5 * 1024 * 1024) {
        ctx.addIssue({ code: "custom", path: ["MEDIA_CHUNK_BYTES"], message: "must be at least 5 MiB (5242880) when STORAGE_DRIVER=s3 (S3 multipart part size)" });
      }
    }
    if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS) {
      ctx.addIssue({ code: "custom", path: ["HTTP_HEADERS_TIMEOUT_MS"], message: "must not be longer than HTTP_REQUEST_TIMEOUT_MS" });
    }
    if (env.OUTBOX_CONCURRENCY_PER_TARGET >= env.OUTBOX_CONCURRENCY) {
      ctx.addIssue({ code: "custom", path: ["OUTBOX_CONCURRENCY_PER_TARGET"], message: "must be less than OUTBOX_CONCURRENCY (webhooks need slots beside the e-mails')" });
    }
    if (env.DATABASE_POOL_SIZE !== undefined && env.DATABASE_POOL_SIZE < CONNECTIONS_PER_WORKER_AT_LEAST * env.WEB_CONCURRENCY) {
      ctx.addIssue({
        code: "custom",
        path: ["DATABASE_POOL_SIZE"],
        message: `must allow ${CONNECTIONS_PER_WORKER_AT_LEAST} connections per worker (a pool, the change listener and the health check): at least ${CONNECTIONS_PER_WORKER_AT_LEAST * env.WEB_CONCURRENCY} for WEB_CONCURRENCY=${env.WEB_CONCURRENCY}`,
      });
    }
    if (env.DATABASE_DIRECT_URL && !/^postgres(ql)?:\/\//.test(env.DATABASE_URL)) {
      ctx.addIssue({ code: "custom", path: ["DATABASE_DIRECT_URL"], message: "is for a PostgreSQL DATABASE_URL only" });
    }
    if (env.DATABASE_REPLICA_URL && !/^postgres(ql)?:\/\//.test(env.DATABASE_URL)) {
      ctx.addIssue({
        code: "custom",
        path: ["DATABASE_REPLICA_URL"],
        message: "is for a PostgreSQL DATABASE_URL only: a SQLite database has no replicas (unset it, or set DATABASE_URL to the PostgreSQL primary)",
      });
    }
    if ((env.ADMIN_PREVIEW === "true" || env.ADMIN_PREVIEW === "1") && !localInstallation(env)) {
      ctx.addIssue({
        code: "custom",
        path: ["ADMIN_PREVIEW"],
        message: "the admin preview is for local installations only: APP_URL on localhost and HOST a loopback address (127.0.0.1, ::1, localhost)",
      });
    }
    if (env.CDN_PURGE_URL && !env.CDN_PURGE_TOKEN) {
      ctx.addIssue({ code: "custom", path: ["CDN_PURGE_TOKEN"], message: "is required when CDN_PURGE_URL is set" });
    }
    if (Boolean(env.SHOPIFY_API_KEY) !== Boolean(env.SHOPIFY_API_SECRET)) {
      ctx.addIssue({ code: "custom", path: ["SHOPIFY_API_KEY"], message: "SHOPIFY_API_KEY and SHOPIFY_API_SECRET go together" });
    }
  });

export type Env = z.infer<typeof schema>;

/** SHOPIFY_BILLING_TEST as a boolean, with its environment-dependent default. */
export function billingIsTest(config: Pick<Env, "NODE_ENV" | "SHOPIFY_BILLING_TEST">): boolean {
  if (config.SHOPIFY_BILLING_TEST === undefined) return config.NODE_ENV !== "production";
  return config.SHOPIFY_BILLING_TEST === "true" || config.SHOPIFY_BILLING_TEST === "1";
}

/**
 * APP_URL names this machine: `localhost` or a `*.localhost` name, which
 * resolve to the loopback address only (RFC 6761). The one test of "a local
 * installation" behind the demo page's default and the admin preview.
 */
export function isLocalAppUrl(appUrl: string): boolean {
  const host = new URL(appUrl).hostname;
  return host === "localhost" || host.endsWith(".localhost");
}

const LOOPBACK_BIND = new Set(["127.0.0.1", "::1", "[::1]", "localhost"]);

/** A local installation: APP_URL on localhost, listening on a loopback address only (nobody else can connect). */
export function localInstallation(config: Pick<Env, "APP_URL" | "HOST">): boolean {
  return isLocalAppUrl(config.APP_URL) && LOOPBACK_BIND.has(config.HOST);
}

/** DEMO_PAGE as a boolean, with its APP_URL-dependent default. */
export function demoPageEnabled(config: Pick<Env, "APP_URL" | "DEMO_PAGE">): boolean {
  if (config.DEMO_PAGE === undefined) return isLocalAppUrl(config.APP_URL);
  return config.DEMO_PAGE === "true" || config.DEMO_PAGE === "1";
}

/** Whether the admin preview is on: a local installation, and ADMIN_PREVIEW not `false` (boot refuses `true` elsewhere). */
export function adminPreviewEnabled(config: Pick<Env, "APP_URL" | "HOST" | "ADMIN_PREVIEW">): boolean {
  if (!localInstallation(config)) return false;
  return config.ADMIN_PREVIEW === undefined || config.ADMIN_PREVIEW === "true" || config.ADMIN_PREVIEW === "1";
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  // Empty strings count as unset, as in most .env tooling.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".") || "(env)"}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}

export const env: Env = parseEnv(process.env);

/**
 * The pool of one worker (Prisma and the hot statements share it): its share
 * of DATABASE_POOL_SIZE less its change listener and its health check's
 * connection.
 */
export function poolSizePerWorker(config: Pick<Env, "DATABASE_POOL_SIZE" | "WEB_CONCURRENCY">): number {
  const budget = config.DATABASE_POOL_SIZE ?? Math.max(20, CONNECTIONS_PER_WORKER_AT_LEAST * config.WEB_CONCURRENCY);
  return Math.floor(budget / config.WEB_CONCURRENCY) - 2;
}

/** `{base_url}` of the SPEC. */
export const baseUrl = `${env.APP_URL}/api/v1`;
export const appOrigin = new URL(env.APP_URL).origin;
export const authIssuer = `${baseUrl}/auth`;
