// Signing and verifying the service's JWTs (user access tokens, widget
// tokens). ES256 only; every token names its use in `token_use`, so one kind
// can never stand in for another.
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from "node:crypto";
import { calculateJwkThumbprint, exportJWK, type JWK, type JWTPayload } from "jose";
import { authIssuer } from "~/env.server";
import { assertSigningKey, getSigningKeyPem } from "~/domains/secrets/secrets.server";

export const ALG = "ES256";
/**
 * user: access tokens; widget: widget tokens; site: the `wish_user` cookie of
 * the service's own pages; shopper: the partner-scoped shopper credential a
 * shop page holds (app/domains/widget/shopper-token.server.ts); page: what
 * the service's own pages send with analytics events
 * (app/domains/analytics/page-token.server.ts); link: a store customer's offer to join
 * their store account into the account they sign in to (app/flows/account-link.server.ts).
 */
export type TokenUse = "user" | "widget" | "site" | "shopper" | "page" | "link";

interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  kid: string;
  publicJwk: JWK;
  /** The encoded protected header every token carries. */
  header: string;
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

let signingKey: Promise<SigningKey> | undefined;

export function getSigningKey(): Promise<SigningKey> {
  return (signingKey ??= (async () => {
    const pem = await getSigningKeyPem();
    assertSigningKey(pem);
    const privateKey = createPrivateKey(pem);
    const publicKey = createPublicKey(privateKey);
    const jwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(jwk);
    const header = b64url({ alg: ALG, kid, typ: "JWT" });
    return { privateKey, publicKey, kid, publicJwk: { ...jwk, kid, alg: ALG, use: "sig" }, header };
  })().catch((err) => {
    signingKey = undefined;
    throw err;
  }));
}

// Our own tokens are signed and verified with node:crypto, synchronously:
// jose's WebCrypto ES256 cost more than the rest of `POST /widget/init`.
// The bytes are what jose's SignJWT wrote before (same header, same claim
// order, IEEE P1363 signature), so tokens issued either way verify either way.

export async function signToken(
  claims: JWTPayload,
  opts: { use: TokenUse; subject: string; audience: string; ttlSeconds: number },
): Promise<{ token: string; expiresAt: number }> {
  const key = await getSigningKey();
  const now = Math.floor(Date.now() / 1000);
  const expiresAt = now + opts.ttlSeconds;
  const payload = { ...claims, token_use: opts.use, iss: authIssuer, sub: opts.subject, aud: opts.audience, iat: now, exp: expiresAt };
  const input = `${key.header}.${b64url(payload)}`;
  const signature = sign("sha256", Buffer.from(input), { key: key.privateKey, dsaEncoding: "ieee-p1363" });
  return { token: `${input}.${signature.toString("base64url")}`, expiresAt };
}

/**
 * Tokens whose header and signature checked out, with their claims (frozen:
 * shared by every request that presents the token). Claims are still checked
 * on every use, so an entry is worthless once its token expired; it only
 * saves the signature check. Bounded; the oldest entries go first.
 */
const verified = new Map<string, Readonly<JWTPayload>>();
const MAX_VERIFIED = 10_000;

function signedClaims(token: string, publicKey: KeyObject): Readonly<JWTPayload> | null {
  const cached = verified.get(token);
  if (cached) return cached;
  const parts = token.split(".");
  if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) return null;
  try {
    const header = JSON.parse(Buffer.from(parts[0], "base64url").toString("utf8"));
    // Pinned algorithm; no critical extensions (jose refused unknown ones too).
    if (!isObject(header) || header.alg !== ALG || header.crit !== undefined) return null;
    const signature = Buffer.from(parts[2], "base64url");
    if (signature.length !== 64) return null;
    const input = Buffer.from(`${parts[0]}.${parts[1]}`);
    if (!verify("sha256", input, { key: publicKey, dsaEncoding: "ieee-p1363" }, signature)) return null;
    const claims = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8"));
    if (!isObject(claims)) return null;
    if (verified.size >= MAX_VERIFIED) verified.delete(verified.keys().next().value!);
    const frozen = Object.freeze(claims as JWTPayload);
    verified.set(token, frozen);
    return frozen;
  } catch {
    return null;
  }
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Verifies signature, algorithm, issuer, audience, expiry and token use; null when any fails. */
export async function verifyToken(
  token: string,
  opts: { use: TokenUse; audience: string },
): Promise<Readonly<JWTPayload> | null> {
  const key = await getSigningKey();
  const claims = signedClaims(token, key.publicKey);
  if (!claims) return null;
  const now = Math.floor(Date.now() / 1000);
  const { iss, aud, exp, nbf, iat, sub } = claims;
  if (iss !== authIssuer) return null;
  if (!(aud === opts.audience || (Array.isArray(aud) && aud.includes(opts.audience)))) return null;
  if (typeof exp !== "number" || exp <= now) return null;
  if (nbf !== undefined && (typeof nbf !== "number" || nbf > now)) return null;
  if (iat !== undefined && typeof iat !== "number") return null;
  if (typeof sub !== "string") return null;
  return claims.token_use === opts.use ? claims : null;
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
