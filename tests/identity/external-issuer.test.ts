// A deployment can trust user tokens of an external issuer by JWKS URL,
// issuer and audience (configuration only). Served here by a local JWKS.
import { createServer, type Server } from "node:http";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api } from "../support/api.ts";
import { startInProcess, type InProcessServer } from "../support/in-process.ts";

const ISSUER = "https://id.partner.example/auth/v1";
const AUDIENCE = "authenticated";
let jwksServer: Server;
let server: InProcessServer;
let api: Api;
let keys: Awaited<ReturnType<typeof generateKeyPair>>;

beforeAll(async () => {
  keys = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(keys.publicKey)), kid: "ext-1", alg: "RS256", use: "sig" };
  jwksServer = createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((r) => jwksServer.listen(0, "127.0.0.1", r));
  const { port } = jwksServer.address() as { port: number };
  server = await startInProcess({
    AUTH_EXTERNAL_JWKS_URL: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    AUTH_EXTERNAL_ISSUER: ISSUER,
    AUTH_EXTERNAL_AUDIENCE: AUDIENCE,
  });
  api = await apiFor(server);
});

afterAll(async () => {
  await server?.stop();
  jwksServer?.close();
});

function externalToken(claims: Record<string, unknown> = {}, audience = AUDIENCE, issuer = ISSUER) {
  return new SignJWT({ email: "ext@partner.example", ...claims })
    .setProtectedHeader({ alg: "RS256", kid: "ext-1" })
    .setIssuer(issuer)
    .setAudience(audience)
    .setSubject("external-user-1")
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(keys.privateKey);
}

describe("external issuer", () => {
  it("accepts its tokens and maps the subject to one local user", async () => {
    const first = await api.get("/auth/user", { token: await externalToken() });
    expect(first.status).toBe(200);
    const again = await api.get("/auth/user", { token: await externalToken() });
    expect(again.body.id).toBe(first.body.id);
  });

  it("rejects a wrong audience, an unknown issuer and an expired token", async () => {
    expect((await api.get("/auth/user", { token: await externalToken({}, "someone-else") })).status).toBe(401);
    expect((await api.get("/auth/user", { token: await externalToken({}, AUDIENCE, "https://other.example") })).status).toBe(401);
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: "RS256", kid: "ext-1" })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject("external-user-1")
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(keys.privateKey);
    expect((await api.get("/auth/user", { token: expired })).status).toBe(401);
  });

  it("still accepts the service's own tokens", async () => {
    const { accessToken } = await api.anonymousUser();
    expect((await api.get("/auth/user", { token: accessToken })).status).toBe(200);
  });
});
