// The rules of the identity provider at {base_url}/auth (GUIDE section 5).
import { createPrivateKey, generateKeyPairSync, randomBytes, scryptSync } from "node:crypto";
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedApi } from "../support/api.ts";
import { sql } from "../support/sql.ts";

let api: Awaited<ReturnType<typeof sharedApi>>;
beforeAll(async () => {
  api = await sharedApi();
});

const email = () => `id-${Math.random().toString(36).slice(2)}@example.test`;
const password = "a good long password";

async function signUp(address = email()) {
  const res = await api.post("/auth/signup", { body: { email: address, password } });
  expect(res.status).toBe(200);
  return res.body;
}

describe("sign-up", () => {
  it("returns the session body with a one-hour ES256 access token", async () => {
    const address = email();
    const session = await signUp(address);
    expect(session).toMatchObject({
      token_type: "bearer",
      expires_in: 3600,
      refresh_token: expect.any(String),
      user: { id: expect.any(String), email: address, is_anonymous: false, created_at: expect.any(String) },
    });
    expect(session.expires_at - Math.floor(Date.now() / 1000)).toBeGreaterThan(3500);
    const header = decodeProtectedHeader(session.access_token);
    expect(header.alg).toBe("ES256");
    expect(header.kid).toEqual(expect.any(String));
    const claims = decodeJwt(session.access_token);
    expect(claims).toMatchObject({
      sub: session.user.id,
      iss: `${api.server.url}/api/v1/auth`,
      aud: "authenticated",
      token_use: "user",
    });
    expect(claims.exp! - claims.iat!).toBe(3600);
  });

  it("an empty body creates an anonymous user", async () => {
    const res = await api.post("/auth/signup");
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ is_anonymous: true, email: "" });
  });

  it("hashes at scrypt N=32768 unless the test-only setting lowers it, and verifies a hash by the N it names", async () => {
    const { parseEnv } = await import("~/env.server");
    expect(parseEnv({}).PASSWORD_TEST_SCRYPT_N).toBe(32768);
    for (const bad of ["512", "1000", "65536", "weak"]) expect(() => parseEnv({ PASSWORD_TEST_SCRYPT_N: bad })).toThrow(/PASSWORD_TEST_SCRYPT_N/);
    // A hash made at production's cost still verifies in a process set to the suite's.
    const { verifyPassword } = await import("~/domains/identity/passwords.server");
    const salt = randomBytes(16);
    const key = scryptSync(password, salt, 32, { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    const stored = `scrypt$32768$8$1$${salt.toString("base64url")}$${key.toString("base64url")}`;
    expect(await verifyPassword(password, stored)).toBe(true);
    expect(await verifyPassword("another long password", stored)).toBe(false);
  });

  it("stores the password hashed with scrypt and refresh tokens only as hashes", async () => {
    const session = await signUp();
    const [user] = await sql<{ passwordHash: string }>(api.server.databaseUrl, `SELECT "passwordHash" FROM "User" WHERE id = ?`, [session.user.id]);
    expect(user.passwordHash).toMatch(/^scrypt\$1024\$8\$1\$/); // the suite's N (vitest.config.ts); production's below
    expect(user.passwordHash).not.toContain(password);
    const tokens = await sql<{ tokenHash: string }>(
      api.server.databaseUrl,
      `SELECT t."tokenHash" FROM "RefreshToken" t JOIN "AuthSession" s ON s.id = t."sessionId" WHERE s."userId" = ?`,
      [session.user.id],
    );
    expect(tokens).toHaveLength(1);
    expect(tokens[0].tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(tokens[0].tokenHash).not.toBe(session.refresh_token);
  });

  it.each([
    [{ email: "not-an-email", password }, 400, "invalid_email"],
    [{ email: "short@example.test", password: "short" }, 422, "weak_password"],
    [{ email: "nopass@example.test" }, 400, "invalid_input"],
    [{ password }, 400, "invalid_input"],
    [{ email: 42, password }, 400, "invalid_input"],
  ])("rejects %j with %i %s", async (body, status, code) => {
    const res = await api.post("/auth/signup", { body });
    expect(res.status).toBe(status);
    expect(res.body.error).toBe(code);
    expect(res.body.message).toEqual(expect.any(String));
  });

  it("rejects a duplicate e-mail (case-insensitively) with 422 email_exists", async () => {
    const address = email();
    await signUp(address);
    const res = await api.post("/auth/signup", { body: { email: address.toUpperCase(), password } });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe("email_exists");
  });
});

describe("password grant", () => {
  it("signs in and rejects wrong or unknown credentials alike", async () => {
    const address = email();
    await signUp(address);
    const ok = await api.post("/auth/token?grant_type=password", { body: { email: address, password } });
    expect(ok.status).toBe(200);
    expect(ok.body.user.email).toBe(address);
    const wrong = await api.post("/auth/token?grant_type=password", { body: { email: address, password: "not the password" } });
    const unknown = await api.post("/auth/token?grant_type=password", { body: { email: email(), password } });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "invalid_credentials", message: "Invalid login credentials" });
    }
  });

  it("an unknown grant type gives 400 unsupported_grant_type", async () => {
    const res = await api.post("/auth/token?grant_type=magic", { body: {} });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("unsupported_grant_type");
  });
});

describe("refresh tokens", () => {
  it("rotate on use; reusing a rotated token revokes the whole family", async () => {
    const first = await signUp();
    const second = await api.post("/auth/token?grant_type=refresh_token", { body: { refresh_token: first.refresh_token } });
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);

    const reuse = await api.post("/auth/token?grant_type=refresh_token", { body: { refresh_token: first.refresh_token } });
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe("refresh_token_already_used");

    // The family is gone: the newest token is dead too, and so is the session for /auth/user.
    const newest = await api.post("/auth/token?grant_type=refresh_token", { body: { refresh_token: second.body.refresh_token } });
    expect(newest.status).toBe(400);
    expect(newest.body.error).toBe("refresh_token_not_found");
    const user = await api.get("/auth/user", { token: second.body.access_token });
    expect(user.status).toBe(401);
  });

  it("of many concurrent exchanges of one token exactly one succeeds", async () => {
    const session = await signUp();
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        api.post("/auth/token?grant_type=refresh_token", { body: { refresh_token: session.refresh_token } }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400)).toHaveLength(7);
  });

  it("unknown or missing refresh tokens give 400", async () => {
    const unknown = await api.post("/auth/token?grant_type=refresh_token", { body: { refresh_token: "nope" } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe("refresh_token_not_found");
    const missing = await api.post("/auth/token?grant_type=refresh_token", { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe("invalid_input");
  });
});

describe("logout", () => {
  it("local scope ends only this session; global ends all of the user's sessions", async () => {
    const address = email();
    const a = await signUp(address);
    const b = (await api.post("/auth/token?grant_type=password", { body: { email: address, password } })).body;
    const c = (await api.post("/auth/token?grant_type=password", { body: { email: address, password } })).body;

    expect((await api.post("/auth/logout?scope=local", { token: a.access_token })).status).toBe(204);
    expect((await api.get("/auth/user", { token: a.access_token })).status).toBe(401);
    expect((await api.get("/auth/user", { token: b.access_token })).status).toBe(200);

    expect((await api.post("/auth/logout", { token: b.access_token })).status).toBe(204);
    expect((await api.get("/auth/user", { token: c.access_token })).status).toBe(401);
    const refresh = await api.post("/auth/token?grant_type=refresh_token", { body: { refresh_token: c.refresh_token } });
    expect(refresh.status).toBe(400);
  });

  it("needs a valid user token", async () => {
    const res = await api.post("/auth/logout");
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("unauthorized");
  });
});

describe("user token verification", () => {
  async function signingKey() {
    const [row] = await sql<{ value: string }>(api.server.databaseUrl, `SELECT value FROM "AppSecret" WHERE name = 'jwt_signing_key'`);
    return createPrivateKey(row.value);
  }

  async function forge(claims: Record<string, unknown>, opts: { key?: Parameters<SignJWT["sign"]>[0]; alg?: string; exp?: number } = {}) {
    const session = await signUp();
    const real = decodeJwt(session.access_token);
    const header = decodeProtectedHeader(session.access_token);
    return new SignJWT({ ...real, ...claims })
      .setProtectedHeader({ alg: opts.alg ?? "ES256", kid: header.kid })
      .setExpirationTime(opts.exp ?? real.exp!)
      .sign(opts.key ?? (await signingKey()));
  }

  it("accepts a correctly signed token (control for the cases below)", async () => {
    const token = await forge({});
    expect((await api.get("/auth/user", { token })).status).toBe(200);
  });

  it.each([
    ["another token use (a widget token)", { token_use: "widget" }],
    ["no token use", { token_use: undefined }],
    ["another audience", { aud: "widget" }],
    ["another issuer", { iss: "https://evil.example/auth" }],
  ])("rejects %s", async (_name, claims) => {
    const token = await forge(claims);
    const res = await api.get("/auth/user", { token });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("unauthorized");
  });

  it("rejects an expired token", async () => {
    const token = await forge({}, { exp: Math.floor(Date.now() / 1000) - 10 });
    expect((await api.get("/auth/user", { token })).status).toBe(401);
  });

  it("rejects a token signed by another key", async () => {
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const token = await forge({}, { key: privateKey });
    expect((await api.get("/auth/user", { token })).status).toBe(401);
  });

  it("rejects alg none and HMAC tokens", async () => {
    const session = await signUp();
    const [, payload] = session.access_token.split(".");
    const none = `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${payload}.`;
    expect((await api.get("/auth/user", { token: none })).status).toBe(401);
    const hmac = await new SignJWT(decodeJwt(session.access_token))
      .setProtectedHeader({ alg: "HS256" })
      .sign(new TextEncoder().encode(api.anonKey));
    expect((await api.get("/auth/user", { token: hmac })).status).toBe(401);
  });

  it("issues tokens jose verifies against the JWKS, byte for byte what jose's SignJWT writes (node:crypto signs them)", async () => {
    const session = await signUp();
    const jwks = createLocalJWKSet((await api.get("/auth/.well-known/jwks.json", { noApiKey: true })).body);
    const { payload, protectedHeader } = await jwtVerify(session.access_token, jwks, { algorithms: ["ES256"], audience: "authenticated" });
    expect(protectedHeader).toEqual({ alg: "ES256", kid: expect.any(String), typ: "JWT" });
    const { iss, sub, aud, iat, exp, token_use, ...claims } = payload;
    expect(token_use).toBe("user");
    const [header, body] = session.access_token.split(".");
    const byJose = await new SignJWT({ ...claims, token_use })
      .setProtectedHeader({ alg: "ES256", kid: protectedHeader.kid, typ: "JWT" })
      .setIssuer(iss!)
      .setSubject(sub!)
      .setAudience(aud!)
      .setIssuedAt(iat!)
      .setExpirationTime(exp!)
      .sign(await signingKey());
    expect(byJose.split(".").slice(0, 2)).toEqual([header, body]);
    expect((await api.get("/auth/user", { token: byJose })).status).toBe(200);
  });

  it("rejects garbage and missing tokens", async () => {
    expect((await api.get("/auth/user", { token: "not.a.jwt" })).status).toBe(401);
    expect((await api.get("/auth/user")).status).toBe(401);
  });

  it("publishes the verification key as JWKS", async () => {
    const res = await api.get("/auth/.well-known/jwks.json", { noApiKey: true });
    expect(res.status).toBe(200);
    expect(res.body.keys).toHaveLength(1);
    expect(res.body.keys[0]).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig", kid: expect.any(String) });
    expect(res.body.keys[0].d).toBeUndefined();
  });
});
