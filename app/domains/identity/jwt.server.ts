// Signing and verifying the service's JWTs (user access tokens, widget
// tokens). ES256 only; every token names its use in `token_use`, so one kind
// can never stand in for another.
import { createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";
import { calculateJwkThumbprint, exportJWK, jwtVerify, SignJWT, type JWK, type JWTPayload } from "jose";
import { authIssuer } from "~/env.server";
import { assertSigningKey, getSigningKeyPem } from "~/domains/secrets/secrets.server";

export const ALG = "ES256";
/** user: access tokens; widget: widget tokens; site: the `wish_user` cookie of the service's own pages. */
export type TokenUse = "user" | "widget" | "site";

interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  kid: string;
  publicJwk: JWK;
}

let signingKey: Promise<SigningKey> | undefined;

export function getSigningKey(): Promise<SigningKey> {
  return (signingKey ??= (async () => {
    const pem = await getSigningKeyPem();
    assertSigningKey(pem);
    const privateKey = createPrivateKey(pem);
    const publicKey = createPublicKey(privateKey);
    const jwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(jwk);
    return { privateKey, publicKey, kid, publicJwk: { ...jwk, kid, alg: ALG, use: "sig" } };
  })().catch((err) => {
    signingKey = undefined;
    throw err;
  }));
}

export async function signToken(
  claims: JWTPayload,
  opts: { use: TokenUse; subject: string; audience: string; ttlSeconds: number },
): Promise<{ token: string; expiresAt: number }> {
  const key = await getSigningKey();
  const now = Math.floor(Date.now() / 1000);
  const expiresAt = now + opts.ttlSeconds;
  const token = await new SignJWT({ ...claims, token_use: opts.use })
    .setProtectedHeader({ alg: ALG, kid: key.kid, typ: "JWT" })
    .setIssuer(authIssuer)
    .setSubject(opts.subject)
    .setAudience(opts.audience)
    .setIssuedAt(now)
    .setExpirationTime(expiresAt)
    .sign(key.privateKey);
  return { token, expiresAt };
}

/** Verifies signature, algorithm, issuer, audience, expiry and token use; null when any fails. */
export async function verifyToken(
  token: string,
  opts: { use: TokenUse; audience: string },
): Promise<JWTPayload | null> {
  const key = await getSigningKey();
  try {
    const { payload } = await jwtVerify(token, key.publicKey, {
      algorithms: [ALG],
      issuer: authIssuer,
      audience: opts.audience,
      requiredClaims: ["exp", "sub", "token_use"],
    });
    return payload.token_use === opts.use ? payload : null;
  } catch {
    return null;
  }
}

/** Peeks at the issuer without trusting anything, to pick the verifier. */
export function unverifiedIssuer(token: string): string | undefined {
  const part = token.split(".")[1];
  if (!part) return undefined;
  try {
    const iss = JSON.parse(Buffer.from(part, "base64url").toString("utf8")).iss;
    return typeof iss === "string" ? iss : undefined;
  } catch {
    return undefined;
  }
}
