// The operator CLI. Every command prints one JSON object on stdout (shape: commands.ts); a
// failure prints `{error, message}` on stderr and exits non-zero (2 for
// usage errors, 1 otherwise). Uses the same DATABASE_URL as the app and
// applies pending migrations first; only `wish init` may create a database.
// Compiled to build/cli/wish.mjs by app/node-build.mjs.
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { commands, CliError, INIT_COMMAND } from "./commands.ts";

function fail(code: string, message: string, exitCode: number): never {
  process.stderr.write(JSON.stringify({ error: code, message }) + "\n");
  process.exit(exitCode);
}

async function main() {
  const argv = process.argv.slice(2);
  const name = [argv[0], argv[1]].filter(Boolean).join(" ");
  const command = commands[name] ?? commands[argv[0] ?? ""];
  if (!command) {
    fail("usage", `unknown command ${JSON.stringify(name)}; commands: ${Object.keys(commands).join(", ")}`, 2);
  }
  const rest = argv.slice(command.name.split(" ").length);
  let values: Record<string, string | boolean | undefined>;
  try {
    const parsed = parseArgs({ args: rest, options: command.options, strict: true, allowPositionals: false, tokens: true });
    // parseArgs lets the last of a repeated flag win; a repeated flag is more likely a mistake.
    const seen = new Set<string>();
    for (const token of parsed.tokens) {
      if (token.kind !== "option") continue;
      if (seen.has(token.name)) throw new Error(`--${token.name} is given more than once`);
      seen.add(token.name);
    }
    values = parsed.values as typeof values;
  } catch (err) {
    fail("usage", `${(err as Error).message}\nusage: wish ${command.name} ${command.usage}`, 2);
  }

  let env;
  try {
    ({ env } = await import("~/env.server"));
  } catch (err) {
    fail("invalid_config", (err as Error).message, 1);
  }
  // A mistyped DATABASE_URL must not quietly become a new, empty database with new secrets.
  const { parseDatabaseUrl } = await import("~/db/url");
  const target = parseDatabaseUrl(env.DATABASE_URL);
  if (target.kind === "sqlite" && !existsSync(target.file) && command.name !== INIT_COMMAND) {
    fail("database_not_found", `No database at ${target.file} (DATABASE_URL). Check the path, or create one with \`wish init\`.`, 1);
  }
  const { migrate, MigrationError } = await import("~/db/migrate.server");
  try {
    // The migrations' advisory lock is session state: not through a transaction-mode pooler.
    await migrate(env.DATABASE_DIRECT_URL ?? env.DATABASE_URL);
  } catch (err) {
    if (err instanceof MigrationError) fail(err.code, err.message, 1);
    throw err;
  }

  const result = await command.run(values);
  process.stdout.write(JSON.stringify(result, null, 2) + "\n");
  // Other processes learn of what the command changed before it disconnects.
  const { settleChangeSignals } = await import("~/db/change-signals.server");
  await settleChangeSignals();
  const { closeDatabase } = await import("~/db.server");
  await closeDatabase();
}

main().catch((err) => {
  if (err instanceof CliError) fail(err.code, err.message, err.exitCode);
  if (err && typeof err === "object" && "code" in err && "status" in err && "body" in err) {
    // An ApiError from a domain function: same code and message as the API would give.
    const body = (err as { body: () => { error: string; message?: string } }).body();
    fail(body.error, body.message ?? body.error, 1);
  }
  fail("internal_error", err instanceof Error ? err.message : String(err), 1);
});
