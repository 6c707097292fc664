// The commands of `wish`. Each one parses its options and calls a domain
// function; no business rules here. Every command answers one object whose
// keys name what it returns, as the API names it: one resource under its
// singular (`{partner}`, `{key}`), a collection under its plural (`{keys}`),
// values shown once beside it (`{basket, webhookSecret}`).
import type { ParseArgsConfig } from "node:util";

export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}

type Options = NonNullable<ParseArgsConfig["options"]>;
type Values = Record<string, string | boolean | undefined>;

export interface Command {
  name: string;
  usage: string;
  options: Options;
  run: (values: Values) => Promise<unknown>;
}

const str = { type: "string" } as const;
const flag = { type: "boolean" } as const;

export function required(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== "string" || value === "") throw new CliError("usage", `--${name} is required`);
  return value;
}

export function optionalString(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === "string" ? value : undefined;
}

export function optionalInt(values: Values, name: string): number | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  // Digits only: Number() would also accept "", "1e3" and "0x10".
  const n = typeof value === "string" && /^-?\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n)) throw new CliError("usage", `--${name} must be an integer`);
  return n;
}

export function requiredInt(values: Values, name: string): number {
  const n = optionalInt(values, name);
  if (n === undefined) throw new CliError("usage", `--${name} is required`);
  return n;
}

export function optionalDate(values: Values, name: string): Date | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  const date = new Date(String(value));
  if (Number.isNaN(date.getTime())) throw new CliError("usage", `--${name} must be an ISO 8601 date`);
  return date;
}

/** The one command that may create a new (SQLite) database. */
export const INIT_COMMAND = "init";

const list: Command[] = [
  {
    name: INIT_COMMAND,
    usage: "",
    options: {},
    async run() {
      // Migrations ran before this (creating the database); now the secrets, once.
      const { env, baseUrl } = await import("~/env.server");
      const secrets = await import("~/domains/secrets/secrets.server");
      const [anonKey] = await Promise.all([secrets.getAnonKey(), secrets.getSigningKeyPem(), secrets.getEncryptionKey()]);
      return { config: { database: env.DATABASE_URL.split("?")[0], app_url: env.APP_URL, base_url: baseUrl, anon_key: anonKey } };
    },
  },
  {
    name: "config",
    usage: "",
    options: {},
    async run() {
      const { env, baseUrl } = await import("~/env.server");
      const { getAnonKey } = await import("~/domains/secrets/secrets.server");
      return { config: { app_url: env.APP_URL, base_url: baseUrl, anon_key: await getAnonKey() } };
    },
  },
  {
    name: "user create",
    usage: "[--email E --password P] [--anonymous]",
    options: { email: str, password: str, anonymous: flag },
    async run(values) {
      const { signUp } = await import("~/domains/identity/identity.server");
      const anonymous = values.anonymous === true;
      if (anonymous && (values.email || values.password)) {
        throw new CliError("usage", "--anonymous takes no --email or --password");
      }
      if (!anonymous && (!values.email || !values.password)) {
        throw new CliError("usage", "give --email and --password, or --anonymous");
      }
      const session = await signUp(anonymous ? {} : { email: values.email, password: values.password });
      return {
        user: { id: session.user.id, email: session.user.email || null, is_anonymous: session.user.is_anonymous },
        session: { access_token: session.access_token, refresh_token: session.refresh_token, expires_at: session.expires_at },
      };
    },
  },
  {
    name: "partner create",
    usage: "--name N --email E [--plan free|starter|growth|scale|enterprise]",
    options: { name: str, email: str, plan: str },
    async run(values) {
      const { createPartner, partnerJson } = await import("~/domains/partners/partners.server");
      const partner = await createPartner({
        name: required(values, "name"),
        email: required(values, "email"),
        plan: optionalString(values, "plan"),
      });
      return { partner: partnerJson(partner) };
    },
  },
  {
    name: "partner plan",
    usage: "--partner ID --plan free|starter|growth|scale|enterprise",
    options: { partner: str, plan: str },
    async run(values) {
      const { partnerJson } = await import("~/domains/partners/partners.server");
      const { changePartnerPlan } = await import("~/flows/partner-plan.server");
      return { partner: partnerJson(await changePartnerPlan(requiredInt(values, "partner"), required(values, "plan"))) };
    },
  },
  {
    name: "partner user",
    usage: "--partner ID --user USER_ID",
    options: { partner: str, user: str },
    async run(values) {
      const { addPartnerUser } = await import("~/domains/partners/partners.server");
      return { member: await addPartnerUser(requiredInt(values, "partner"), required(values, "user")) };
    },
  },
  {
    name: "key create",
    usage: "--partner ID --env test|live [--domains a.com,*.b.com] [--created-at ISO]",
    options: { partner: str, env: str, domains: str, "created-at": str },
    async run(values) {
      const { createApiKey, apiKeyJson } = await import("~/domains/keys/keys.server");
      const domains = optionalString(values, "domains");
      const key = await createApiKey(requiredInt(values, "partner"), {
        environment: required(values, "env"),
        allowedDomains: domains === undefined ? [] : domains.split(",").filter((d) => d.trim() !== ""),
        createdAt: optionalDate(values, "created-at"),
      });
      return { key: apiKeyJson(key) };
    },
  },
  // Operator scope: the key commands act for whichever partner owns the key.
  {
    name: "key revoke",
    usage: "--id ID",
    options: { id: str },
    async run(values) {
      const { getApiKey, revokeApiKey, apiKeyJson } = await import("~/domains/keys/keys.server");
      const key = await getApiKey(requiredInt(values, "id"));
      return { key: apiKeyJson(await revokeApiKey(key.partnerId, key.id)) };
    },
  },
  {
    name: "key rotate",
    usage: "--id ID",
    options: { id: str },
    async run(values) {
      const { getApiKey, rotateApiKey, apiKeyJson } = await import("~/domains/keys/keys.server");
      const old = await getApiKey(requiredInt(values, "id"));
      const { key, rotated } = await rotateApiKey(old.partnerId, old.id);
      return { key: apiKeyJson(key), rotated: apiKeyJson(rotated) };
    },
  },
  {
    name: "key delete",
    usage: "--id ID",
    options: { id: str },
    async run(values) {
      const { getApiKey, deleteApiKey } = await import("~/domains/keys/keys.server");
      const key = await getApiKey(requiredInt(values, "id"));
      await deleteApiKey(key.partnerId, key.id);
      return { key: { id: key.id, deleted: true } };
    },
  },
  {
    name: "key domains",
    usage: '--id ID --domains a.com,*.b.com (--domains "" clears the list)',
    options: { id: str, domains: str },
    async run(values) {
      const { getApiKey, setAllowList, apiKeyJson } = await import("~/domains/keys/keys.server");
      const domains = optionalString(values, "domains");
      if (domains === undefined) throw new CliError("usage", "--domains is required");
      const key = await getApiKey(requiredInt(values, "id"));
      const list = domains.split(",").filter((d) => d.trim() !== "");
      return { key: apiKeyJson(await setAllowList(key.partnerId, key.id, list)) };
    },
  },
  {
    name: "key list",
    usage: "--partner ID",
    options: { partner: str },
    async run(values) {
      const { listApiKeys, apiKeyJson } = await import("~/domains/keys/keys.server");
      return { keys: (await listApiKeys(requiredInt(values, "partner"))).map(apiKeyJson) };
    },
  },
  {
    name: "shop create",
    usage: "--partner ID --domain x.myshopify.com [--name N] [--handle H] [--published] [--installed-at ISO] [--subscription trialing|active|cancelled]",
    options: { partner: str, domain: str, name: str, handle: str, published: flag, "installed-at": str, subscription: str },
    async run(values) {
      const { createPlatformShop, shopJson } = await import("~/domains/shops/shops.server");
      const shop = await createPlatformShop(requiredInt(values, "partner"), {
        domain: required(values, "domain"),
        installedAt: optionalDate(values, "installed-at"),
        subscriptionStatus: optionalString(values, "subscription"),
        name: optionalString(values, "name"),
        handle: optionalString(values, "handle"),
        published: values.published === true,
      });
      return { shop: shopJson(shop) };
    },
  },
  {
    name: "shop data-requests",
    usage: "--domain x.myshopify.com",
    options: { domain: str },
    async run(values) {
      const { normalizeShopDomain } = await import("~/domains/shops/shops.server");
      const { dataRequestsOf } = await import("~/flows/compliance.server");
      return { data_requests: await dataRequestsOf(normalizeShopDomain(required(values, "domain"))) };
    },
  },
  {
    name: "pat create",
    usage: "--partner ID [--name N] [--expires-in-days 365]",
    options: { partner: str, name: str, "expires-in-days": str },
    async run(values) {
      const { createPersonalAccessToken } = await import("~/domains/partners/access-tokens.server");
      const token = await createPersonalAccessToken(requiredInt(values, "partner"), {
        name: optionalString(values, "name"),
        expiresInDays: optionalInt(values, "expires-in-days"),
      });
      return { access_token: token };
    },
  },
  {
    name: "pat revoke",
    usage: "--partner ID --id ID",
    options: { partner: str, id: str },
    async run(values) {
      const { revokePersonalAccessToken } = await import("~/domains/partners/access-tokens.server");
      return { access_token: await revokePersonalAccessToken(requiredInt(values, "partner"), requiredInt(values, "id")) };
    },
  },
  {
    name: "usage",
    usage: "--partner ID",
    options: { partner: str },
    async run(values) {
      const { usageRecord } = await import("~/domains/metering/usage.server");
      return { usage: await usageRecord(requiredInt(values, "partner")) };
    },
  },
  {
    name: "outbox",
    usage: "[--status pending|sent|failed] [--limit N]",
    options: { status: str, limit: str },
    async run(values) {
      const { listOutbox } = await import("~/domains/outbox/outbox.server");
      return listOutbox({ status: optionalString(values, "status"), limit: optionalInt(values, "limit") });
    },
  },
  {
    name: "basket create",
    usage: "--partner ID [--layout drawer|modal|page] [--color #rrggbb] [--webhook URL]",
    options: { partner: str, layout: str, color: str, webhook: str },
    async run(values) {
      const { createBasketConfig } = await import("~/domains/baskets/baskets.server");
      return createBasketConfig(requiredInt(values, "partner"), {
        layout: optionalString(values, "layout"),
        primaryColor: optionalString(values, "color"),
        webhookUrl: optionalString(values, "webhook"),
      });
    },
  },
];

export const commands: Record<string, Command> = Object.fromEntries(list.map((c) => [c.name, c]));
