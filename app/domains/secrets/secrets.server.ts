// Secrets the service needs at run time. Each comes from its environment
// variable when set; otherwise it is generated once, stored in the database
// and shared by every instance and the CLI (embedded mode).
import { createPrivateKey, generateKeyPairSync, randomBytes } from "node:crypto";
import { db } from "~/db.server";
import { env } from "~/env.server";
import { isUniqueViolation } from "~/db/errors";

async function storedSecret(name: string, generate: () => string): Promise<string> {
  const existing = await db.appSecret.findUnique({ where: { name } });
  if (existing) return existing.value;
  try {
    await db.appSecret.create({ data: { name, value: generate() } });
  } catch (err) {
    // Another instance created it first: use theirs.
    if (!isUniqueViolation(err)) throw err;
  }
  return (await db.appSecret.findUniqueOrThrow({ where: { name } })).value;
}

function memo<T>(load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => (value ??= load().catch((err) => ((value = undefined), Promise.reject(err))));
}

/** The anonymous-client key (`apikey` header, SPEC section 5 rule 1). */
export const getAnonKey = memo(async () =>
  env.ANON_KEY ?? storedSecret("anon_key", () => `anon_${randomBytes(24).toString("base64url")}`),
);

/** PKCS#8 PEM of the P-256 key that signs user and widget tokens. */
export const getSigningKeyPem = memo(async () =>
  env.JWT_PRIVATE_KEY ??
  storedSecret("jwt_signing_key", () =>
    generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
  ),
);

/** 32-byte key for encrypting stored session tokens at rest. */
export const getEncryptionKey = memo(async () =>
  Buffer.from(
    env.ENCRYPTION_KEY ?? (await storedSecret("encryption_key", () => randomBytes(32).toString("base64url"))),
    "base64url",
  ),
);

/** HMAC key of the signed list-item references that travel through a shop's cart into its orders (lists/wish-ref.server.ts). */
export const getWishRefKey = memo(async () =>
  Buffer.from(await storedSecret("wish_ref_key", () => randomBytes(32).toString("base64url")), "base64url"),
);

/** HMAC key of the identifiers a partner sees of a shopper: widget session ids and pairwise shopper ids (widget/pairwise.server.ts). */
export const getPairwiseKey = memo(async () =>
  Buffer.from(await storedSecret("pairwise_key", () => randomBytes(32).toString("base64url")), "base64url"),
);

export function assertSigningKey(pem: string): void {
  const key = createPrivateKey(pem);
  if (key.asymmetricKeyType !== "ec" || key.asymmetricKeyDetails?.namedCurve !== "prime256v1") {
    throw new Error("JWT_PRIVATE_KEY must be an EC P-256 key (ES256)");
  }
}

/** HMAC key of the alert e-mails' confirmation and unsubscribe links (alerts/alert-links.server.ts). */
export const getAlertLinkKey = memo(async () =>
  Buffer.from(await storedSecret("alert_link_key", () => randomBytes(32).toString("base64url")), "base64url"),
);

/** HMAC key of the admin preview's cookie (admin/preview.server.ts); only a local installation ever creates it. */
export const getAdminPreviewKey = memo(async () =>
  Buffer.from(await storedSecret("admin_preview_key", () => randomBytes(32).toString("base64url")), "base64url"),
);
