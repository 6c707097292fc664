// The commands of `wish`. Each one parses its options and calls a domain
// function; no business rules here.
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

export function optionalInt(values: Values, name: string): number | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n)) throw new CliError("usage", `--${name} must be an integer`);
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

const list: Command[] = [
  {
    name: "config",
    usage: "",
    options: {},
    async run() {
      const { env, baseUrl } = await import("~/env.server");
      const { getAnonKey } = await import("~/domains/secrets/secrets.server");
      return { app_url: env.APP_URL, base_url: baseUrl, anon_key: await getAnonKey() };
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
        user_id: session.user.id,
        email: session.user.email || null,
        is_anonymous: session.user.is_anonymous,
        access_token: session.access_token,
        refresh_token: session.refresh_token,
        expires_at: session.expires_at,
      };
    },
  },
];

// Unused helpers stay exported for the commands other modules add.
void flag;
export const commands: Record<string, Command> = Object.fromEntries(list.map((c) => [c.name, c]));
