// The operator CLI `wish`: real CLI processes against a fresh
// database. Fixtures the CLI does not need to create (partners on a given
// plan, usage counters) are written in-process with the app's client; the
// "token stored only as a hash" check reads the database with the raw driver.
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "~/db.server";
import { parseDatabaseUrl } from "~/db/url";
import { wish, wishRaw } from "../support/api.ts";
import { freshDatabaseUrl } from "../support/database.ts";
import { root } from "../support/server.ts";

let url: string;
let db: Db;

describe("output", () => {
  it("every command answers one object whose keys name what it returns", async () => {
    const { partner } = await wish(url, ["partner", "create", "--name", "Shapes", "--email", "shapes@shop.test", "--plan", "growth"]);
    const p = String(partner.partner_id);
    const { user } = await wish(url, ["user", "create", "--anonymous"]);
    const { key } = await wish(url, ["key", "create", "--partner", p, "--env", "test"]);
    const spare = (await wish(url, ["key", "create", "--partner", p, "--env", "test"])).key;
    const { access_token } = await wish(url, ["pat", "create", "--partner", p]);
    const keysOf = async (args: string[]) => Object.keys(await wish(url, args)).sort();
    const expected: Array<[string[], string[]]> = [
      [["config"], ["config"]],
      [["user", "create", "--anonymous"], ["session", "user"]],
      [["partner", "create", "--name", "S2", "--email", "s2@shop.test"], ["partner"]],
      [["partner", "plan", "--partner", p, "--plan", "scale"], ["partner"]],
      [["partner", "user", "--partner", p, "--user", user.id], ["member"]],
      [["key", "domains", "--id", String(key.id), "--domains", "a.example"], ["key"]],
      [["key", "list", "--partner", p], ["keys"]],
      [["key", "rotate", "--id", String(key.id)], ["key", "rotated"]],
      [["key", "revoke", "--id", String(spare.id)], ["key"]],
      [["shop", "create", "--partner", p, "--domain", "shapes.myshopify.com"], ["shop"]],
      [["shop", "data-requests", "--domain", "shapes.myshopify.com"], ["data_requests"]],
      [["pat", "revoke", "--partner", p, "--id", String(access_token.id)], ["access_token"]],
      [["usage", "--partner", p], ["usage"]],
      [["outbox", "--limit", "1"], ["messages"]],
      [["basket", "create", "--partner", p, "--webhook", "https://hooks.example.com/shapes"], ["basket", "webhookSecret"]],
    ];
    const answered = await Promise.all(expected.map(([args]) => keysOf(args)));
    expected.forEach(([args, keys], i) => expect(answered[i], `wish ${args.join(" ")}`).toEqual(keys));
    // Deleting needs the revocation first.
    expect(await keysOf(["key", "delete", "--id", String(spare.id)])).toEqual(["key"]);
  }, 120_000);
});

beforeAll(async () => {
  url = await freshDatabaseUrl();
  // ~/db.server reads DATABASE_URL when first imported; freshDatabaseUrl
  // needed the run's admin URL, so switch only now.
  process.env.DATABASE_URL = url;
  ({ db } = await import("~/db.server"));
});

afterAll(async () => {
  await db?.$disconnect();
});

/** Runs a command that must fail; returns exit code and the parsed stderr JSON. */
async function wishFails(args: string[]) {
  const { code, stdout, stderr } = await wishRaw(url, args);
  expect(stdout, `stdout of wish ${args.join(" ")}`).toBe("");
  return { code, error: JSON.parse(stderr.trim().split("\n").at(-1)!) as { error: string; message: string } };
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DAY = 86_400_000;
const thisMonth = () => new Date().toISOString().slice(0, 7);

let partnerSeq = 0;
async function newPartner(plan = "free") {
  partnerSeq += 1;
  return db.partner.create({ data: { name: `Partner ${partnerSeq}`, email: `p${partnerSeq}@example.test`, plan } });
}

/** All rows of a table as plain objects, read with the database's own driver. */
async function rawRows(table: string): Promise<Record<string, unknown>[]> {
  const target = parseDatabaseUrl(url);
  if (target.kind === "sqlite") {
    const sqlite = new Database(target.file, { readonly: true });
    try {
      return sqlite.prepare(`SELECT * FROM "${table}"`).all() as Record<string, unknown>[];
    } finally {
      sqlite.close();
    }
  }
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  try {
    return (await client.query(`SELECT * FROM "${table}"`)).rows;
  } finally {
    await client.end();
  }
}

describe("wish config and wish user create", () => {
  it("print the client configuration and a new user's session", async () => {
    const [config, anon, user, unknown] = await Promise.all([
      wish(url, ["config"]),
      wish(url, ["user", "create", "--anonymous"]),
      wish(url, ["user", "create", "--email", "cli-user@example.test", "--password", "correct horse battery"]),
      wishRaw(url, ["nonsense"]),
    ]);
    expect(config).toEqual({ config: { app_url: expect.any(String), base_url: expect.any(String), anon_key: expect.any(String) } });
    const session = { access_token: expect.any(String), refresh_token: expect.any(String), expires_at: expect.any(Number) };
    expect(anon).toEqual({ user: { id: expect.any(String), email: null, is_anonymous: true }, session });
    expect(user).toEqual({ user: { id: expect.any(String), email: "cli-user@example.test", is_anonymous: false }, session });
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.stderr).error).toBe("usage");
  });
});

describe("wish partner", () => {
  it("create prints the partner, on Free unless a plan is given", async () => {
    const [{ partner: free }, { partner: growth }] = await Promise.all([
      wish(url, ["partner", "create", "--name", "Acme", "--email", "Ops@Acme.test"]),
      wish(url, ["partner", "create", "--name", "Big", "--email", "b@big.test", "--plan", "growth"]),
    ]);
    expect(free).toEqual({
      partner_id: expect.any(Number),
      name: "Acme",
      email: "ops@acme.test",
      plan: "free",
      plan_changed_at: expect.stringMatching(ISO),
      created_at: expect.stringMatching(ISO),
    });
    expect(growth.plan).toBe("growth");
    expect(growth.partner_id).not.toBe(free.partner_id);
  });

  it("plan changes the plan and its change time", async () => {
    const partner = await newPartner("free");
    const changed = (await wish(url, ["partner", "plan", "--partner", String(partner.id), "--plan", "scale"])).partner;
    expect(changed).toMatchObject({ partner_id: partner.id, plan: "scale" });
    expect(Date.parse(changed.plan_changed_at)).toBeGreaterThan(partner.planChangedAt.getTime());
    expect((await db.partner.findUniqueOrThrow({ where: { id: partner.id } })).plan).toBe("scale");
  });

  it("rejects bad input with a JSON error on stderr and a non-zero exit", async () => {
    const partner = await newPartner();
    const [badPlan, missingEmail, unknownPartner, badPlanChange, notANumber] = await Promise.all([
      wishFails(["partner", "create", "--name", "X", "--email", "x@x.test", "--plan", "gold"]),
      wishFails(["partner", "create", "--name", "X"]),
      wishFails(["partner", "plan", "--partner", "999999", "--plan", "starter"]),
      wishFails(["partner", "plan", "--partner", String(partner.id), "--plan", "premium"]),
      wishFails(["partner", "plan", "--partner", "abc", "--plan", "starter"]),
    ]);
    expect(badPlan).toMatchObject({ code: 1, error: { error: "invalid_plan", message: expect.stringContaining("starter") } });
    expect(missingEmail).toMatchObject({ code: 2, error: { error: "usage", message: expect.stringContaining("--email") } });
    expect(unknownPartner).toMatchObject({ code: 1, error: { error: "partner_not_found" } });
    expect(badPlanChange).toMatchObject({ code: 1, error: { error: "invalid_plan" } });
    expect(notANumber).toMatchObject({ code: 2, error: { error: "usage" } });
  });
});

describe("wish key", () => {
  it("create prints a test or live key with its normalized allow-list; --created-at back-dates", async () => {
    const partner = await newPartner();
    const id = String(partner.id);
    const [{ key: testKey }, { key: liveKey }] = await Promise.all([
      wish(url, ["key", "create", "--partner", id, "--env", "test"]),
      wish(url, [
        "key", "create", "--partner", id, "--env", "live",
        "--domains", "Shop.Example.com, *.brand.example,shop.example.com",
        "--created-at", "2026-08-31T23:59:59Z",
      ]),
    ]);
    expect(testKey).toEqual({
      id: expect.any(Number),
      key: expect.stringMatching(/^pk_test_[A-Za-z0-9_-]{32}$/),
      environment: "test",
      status: "active",
      allowed_domains: [],
      created_at: expect.stringMatching(ISO),
      request_plan: "trial",
      rotated_to_id: null,
      grace_expires_at: null,
      revoked_at: null,
      last_used_at: null,
    });
    expect(Math.abs(Date.parse(testKey.created_at) - Date.now())).toBeLessThan(60_000);
    expect(liveKey).toMatchObject({
      key: expect.stringMatching(/^pk_live_[A-Za-z0-9_-]{32}$/),
      environment: "live",
      allowed_domains: ["shop.example.com", "*.brand.example"],
      created_at: "2026-08-31T23:59:59.000Z",
    });
    const stored = await db.apiKey.findUniqueOrThrow({ where: { id: liveKey.id } });
    expect(stored).toMatchObject({ partnerId: partner.id, key: liveKey.key, allowedDomains: ["shop.example.com", "*.brand.example"] });
  });

  it("revoke sets status revoked and the revocation time", async () => {
    const partner = await newPartner();
    const key = (await wish(url, ["key", "create", "--partner", String(partner.id), "--env", "live", "--domains", "a.example"])).key;
    const revoked = (await wish(url, ["key", "revoke", "--id", String(key.id)])).key;
    expect(revoked).toEqual({ ...key, status: "revoked", revoked_at: expect.stringMatching(ISO) });
    const stored = await db.apiKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(stored.status).toBe("revoked");
    expect(Math.abs(stored.revokedAt!.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it("rejects unknown partners and keys, bad environments and bad domains", async () => {
    const partner = await newPartner();
    const create = (...args: string[]) => wishFails(["key", "create", "--partner", String(partner.id), ...args]);
    const results = await Promise.all([
      wishFails(["key", "create", "--partner", "999999", "--env", "test"]),
      wishFails(["key", "revoke", "--id", "999999"]),
      create("--env", "staging"),
      create("--env", "live", "--domains", "https://shop.example.com"),
      create("--env", "live", "--domains", "shop.example.com/cart"),
      create("--env", "live", "--domains", "shop.example.com:8443"),
      create("--env", "live", "--domains", "my shop.example.com"),
    ]);
    const [unknownPartner, unknownKey, badEnv, ...badDomains] = results;
    expect(unknownPartner).toMatchObject({ code: 1, error: { error: "partner_not_found" } });
    expect(unknownKey).toMatchObject({ code: 1, error: { error: "api_key_not_found" } });
    expect(badEnv).toMatchObject({ code: 1, error: { error: "invalid_environment" } });
    for (const bad of badDomains) expect(bad).toMatchObject({ code: 1, error: { error: "invalid_domain" } });
    expect(await db.apiKey.count({ where: { partnerId: partner.id } })).toBe(0);
  });
});

describe("wish shop", () => {
  it("create starts a 14-day trial from the install time; --installed-at back-dates it", async () => {
    const partner = await newPartner();
    const id = String(partner.id);
    const [{ shop: fresh }, { shop: old }] = await Promise.all([
      wish(url, ["shop", "create", "--partner", id, "--domain", "fresh-store.myshopify.com"]),
      wish(url, [
        "shop", "create", "--partner", id, "--domain", "Old-Store.MyShopify.com",
        "--installed-at", "2026-01-10T12:00:00Z", "--subscription", "active",
      ]),
    ]);
    expect(fresh).toEqual({
      id: expect.any(Number),
      partner_id: partner.id,
      domain: "fresh-store.myshopify.com",
      name: null,
      active: true,
      installed_at: expect.stringMatching(ISO),
      uninstalled_at: null,
      trial_ends_at: expect.stringMatching(ISO),
      subscription_status: "trialing",
      plan: null,
      handle: "fresh-store",
      published: false,
      updated_at: expect.stringMatching(ISO),
    });
    expect(Date.parse(fresh.trial_ends_at) - Date.parse(fresh.installed_at)).toBe(14 * DAY);
    expect(old).toMatchObject({
      domain: "old-store.myshopify.com",
      installed_at: "2026-01-10T12:00:00.000Z",
      trial_ends_at: "2026-01-24T12:00:00.000Z",
      subscription_status: "active",
    });
  });

  it("rejects a duplicate domain with 409 shop_exists, and bad domains and statuses", async () => {
    const partner = await newPartner();
    const id = String(partner.id);
    await wish(url, ["shop", "create", "--partner", id, "--domain", "taken.myshopify.com"]);
    const [duplicate, badDomain, badStatus] = await Promise.all([
      wishFails(["shop", "create", "--partner", id, "--domain", "TAKEN.myshopify.com"]),
      wishFails(["shop", "create", "--partner", id, "--domain", "shop.example.com"]),
      wishFails(["shop", "create", "--partner", id, "--domain", "s2.myshopify.com", "--subscription", "paused"]),
    ]);
    expect(duplicate).toMatchObject({ code: 1, error: { error: "shop_exists" } });
    expect(badDomain).toMatchObject({ code: 1, error: { error: "invalid_shop_domain" } });
    expect(badStatus).toMatchObject({ code: 1, error: { error: "invalid_subscription_status" } });
  });
});

describe("wish pat", () => {
  it("create shows the token once; the database holds only its SHA-256", async () => {
    const partner = await newPartner();
    const [{ access_token: pat }, unknownPartner] = await Promise.all([
      wish(url, ["pat", "create", "--partner", String(partner.id)]),
      wishFails(["pat", "create", "--partner", "999999"]),
    ]);
    expect(pat).toMatchObject({ id: expect.any(Number), token: expect.stringMatching(/^wpat_[A-Za-z0-9_-]{43}$/) });
    const ttl = Date.parse(pat.expires_at) - Date.now();
    expect(Math.abs(ttl - 365 * DAY)).toBeLessThan(60_000);
    expect(unknownPartner).toMatchObject({ code: 1, error: { error: "partner_not_found" } });

    const rows = await rawRows("PersonalAccessToken");
    const row = rows.find((r) => Number(r.id) === pat.id)!;
    expect(row.tokenHash).toBe(createHash("sha256").update(pat.token).digest("hex"));
    const secret = pat.token.slice("wpat_".length);
    for (const r of rows) {
      for (const value of Object.values(r)) expect(String(value)).not.toContain(secret);
    }
  });

  it("authenticates until revoked or expired", async () => {
    const { authenticatePersonalAccessToken } = await import("~/domains/partners/access-tokens.server");
    const partner = await newPartner();
    const id = String(partner.id);
    const [kept, revoked, expired] = (
      await Promise.all([
        wish(url, ["pat", "create", "--partner", id, "--name", "ci"]),
        wish(url, ["pat", "create", "--partner", id]),
        wish(url, ["pat", "create", "--partner", id, "--expires-in-days", "1"]),
      ])
    ).map((out) => out.access_token);
    for (const t of [kept, revoked, expired]) {
      expect(await authenticatePersonalAccessToken(t.token)).toEqual({ partnerId: partner.id, tokenId: t.id, createdById: null, role: "owner" });
    }
    const [{ access_token: revokeResult }, otherPartner] = await Promise.all([
      wish(url, ["pat", "revoke", "--partner", id, "--id", String(revoked.id)]),
      wishFails(["pat", "revoke", "--partner", "999999", "--id", String(kept.id)]),
    ]);
    expect(revokeResult).toMatchObject({ id: revoked.id, revoked_at: expect.stringMatching(ISO) });
    expect(revokeResult).not.toHaveProperty("token");
    expect(otherPartner).toMatchObject({ code: 1, error: { error: "token_not_found" } });

    expect(await authenticatePersonalAccessToken(revoked.token)).toBeNull();
    expect(await authenticatePersonalAccessToken(expired.token, new Date(Date.now() + 2 * DAY))).toBeNull();
    expect(await authenticatePersonalAccessToken(kept.token)).toEqual({ partnerId: partner.id, tokenId: kept.id, createdById: null, role: "owner" });
    expect(await authenticatePersonalAccessToken(kept.token + "x")).toBeNull();
    expect(await authenticatePersonalAccessToken("wpat_unknown")).toBeNull();
    const used = await db.personalAccessToken.findUniqueOrThrow({ where: { id: kept.id } });
    expect(used.lastUsedAt).not.toBeNull();
  });
});

describe("wish usage", () => {
  const spec27Fields = [
    "plan", "plan_name", "actions_used", "actions_limit", "period_start", "period_end", "breakdown", "percent",
    "level", "trial_days", "hard_limit", "overage_per_action_minor", "overage_actions", "overage_cost_minor",
    "next_plan", "upgrade_cheaper_from_actions", "blocked",
  ];

  async function counter(partnerId: number, total: number, period = thisMonth()) {
    const saves = Math.floor(total / 2);
    const shares = Math.floor(total / 4);
    await db.usageCounter.create({ data: { partnerId, period, saves, shares, listViews: total - saves - shares, total } });
  }

  it("a new partner: every SPEC 2.7 field, zeros, level ok (other months' counters ignored)", async () => {
    const partner = await newPartner();
    await counter(partner.id, 999, "2000-01");
    const usage = (await wish(url, ["usage", "--partner", String(partner.id)])).usage;
    for (const field of spec27Fields) expect(usage, field).toHaveProperty(field);
    const now = new Date();
    expect(usage).toMatchObject({
      plan: "free",
      plan_name: "Free",
      actions_used: 0,
      actions_limit: 200,
      period_start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
      period_end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
      breakdown: { save: 0, share: 0, list_view: 0 },
      percent: 0,
      level: "ok",
      trial_days: 0,
      hard_limit: true,
      overage_per_action_minor: null,
      overage_actions: 0,
      overage_cost_minor: null,
      next_plan: "starter",
      upgrade_cheaper_from_actions: null,
      blocked: false,
    });
  });

  it("reads this month's counter: Free warning and blocked, Starter overage, Enterprise unlimited", async () => {
    const [free170, free200, starter, enterprise] = await Promise.all([
      newPartner("free"),
      newPartner("free"),
      newPartner("starter"),
      newPartner("enterprise"),
    ]);
    await counter(free170.id, 170);
    await counter(free200.id, 200);
    await counter(starter.id, 3200);
    await counter(enterprise.id, 1_000_000);
    const usageOf = async (id: number) => (await wish(url, ["usage", "--partner", String(id)])).usage;
    const [u170, u200, uStarter, uEnterprise, unknown] = await Promise.all([
      usageOf(free170.id),
      usageOf(free200.id),
      usageOf(starter.id),
      usageOf(enterprise.id),
      wishFails(["usage", "--partner", "999999"]),
    ]);
    expect(u170).toMatchObject({
      actions_used: 170,
      breakdown: { save: 85, share: 42, list_view: 43 },
      percent: 85,
      level: "warning",
      blocked: false,
    });
    expect(u200).toMatchObject({ percent: 100, level: "exceeded", blocked: true, overage_cost_minor: null });
    expect(uStarter).toMatchObject({
      plan: "starter",
      actions_used: 3200,
      actions_limit: 2000,
      level: "exceeded",
      trial_days: 14,
      hard_limit: false,
      overage_per_action_minor: 2.5,
      overage_actions: 1200,
      overage_cost_minor: 3000,
      next_plan: "growth",
      upgrade_cheaper_from_actions: 1200,
      blocked: false,
    });
    expect(uEnterprise).toMatchObject({
      plan: "enterprise",
      actions_used: 1_000_000,
      actions_limit: null,
      percent: 0,
      level: "ok",
      overage_per_action_minor: null,
      overage_actions: 0,
      overage_cost_minor: null,
      next_plan: null,
      upgrade_cheaper_from_actions: null,
      blocked: false,
    });
    expect(unknown).toMatchObject({ code: 1, error: { error: "partner_not_found" } });
  });
});

describe("wish itself", () => {
  it("runs the compiled build, not TypeScript through tsx (its speed is the bench's business, not a timed test's)", async () => {
    const entry = readFileSync(path.join(root, "app/cli/wish.mjs"), "utf8");
    expect(entry).not.toContain("tsx");
    expect(entry).toContain("build/cli/wish.mjs");
    const compiled = readFileSync(path.join(root, "build/cli/wish.mjs"), "utf8");
    expect(compiled).not.toMatch(/from\s+["']tsx|import\(["']tsx/);
    // The entry really runs that build: the command answers.
    expect((await wish(url, ["config"])).config).toHaveProperty("anon_key");
  });

  it("a repeated flag is a usage error, not 'last wins'", async () => {
    const partner = await newPartner();
    const result = await wishFails(["partner", "plan", "--partner", String(partner.id), "--partner", "2", "--plan", "growth"]);
    expect(result).toMatchObject({ code: 2, error: { error: "usage", message: expect.stringContaining("--partner is given more than once") } });
    expect((await db.partner.findUniqueOrThrow({ where: { id: partner.id } })).plan).toBe("free");
  });

  it("accepts prod as the name of live keys (SPEC 5 rule 6)", async () => {
    const partner = await newPartner();
    const key = (await wish(url, ["key", "create", "--partner", String(partner.id), "--env", "prod", "--domains", "shop.example.com"])).key;
    expect(key).toMatchObject({ key: expect.stringMatching(/^pk_live_/), environment: "live" });
  });

  // A SQLite URL whatever database the suite runs on: the rule is about SQLite files.
  it("refuses a SQLite DATABASE_URL whose file does not exist; `wish init` creates it with its secrets", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "wish-cli-"));
    const missing = `file:${path.join(dir, "typo", "wishlist.db")}`;
    const refused = await wishRaw(missing, ["config"]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(JSON.parse(refused.stderr.trim())).toMatchObject({ error: "database_not_found", message: expect.stringContaining("wish init") });
    expect(existsSync(path.join(dir, "typo"))).toBe(false);

    const created = (await wish(missing, ["init"])).config;
    expect(created).toMatchObject({ database: missing, anon_key: expect.stringMatching(/^anon_/) });
    expect(existsSync(path.join(dir, "typo", "wishlist.db"))).toBe(true);
    // The same secrets from now on.
    expect((await wish(missing, ["config"])).config.anon_key).toBe(created.anon_key);
  });
});
