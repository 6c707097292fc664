// Encryption at rest for the session tokens the sign-in bridge and the
// session store keep (OAuthState.sessionData, WidgetSession.sessionData).
// AES-256-GCM with the 32-byte key of getEncryptionKey() (ENCRYPTION_KEY, or
// generated once and stored in the database), a random 12-byte IV per value;
// stored as `v1.<iv>.<tag>.<ciphertext>`, each part base64url. The version
// prefix leaves room for a later key or algorithm change. An optional `aad`
// (the row's key) binds a ciphertext to its row, so copying it into another
// row makes it undecryptable.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { getEncryptionKey } from "~/domains/secrets/secrets.server";

const VERSION = "v1";
const ALGORITHM = "aes-256-gcm";
const IV_BYTES = 12;
const TAG_BYTES = 16;

export async function encryptJson(value: unknown, aad?: string): Promise<string> {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, await getEncryptionKey(), iv, { authTagLength: TAG_BYTES });
  if (aad !== undefined) cipher.setAAD(Buffer.from(aad, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString("base64url"));
  return [VERSION, ...parts].join(".");
}

/** Throws when the text is not ours, was tampered with, or was encrypted under another key or `aad`. */
export async function decryptJson<T = unknown>(text: string, aad?: string): Promise<T> {
  const parts = text.split(".");
  if (parts.length !== 4 || parts[0] !== VERSION) throw new Error("Unsupported encrypted value format");
  const [iv, tag, ciphertext] = parts.slice(1).map((p) => Buffer.from(p, "base64url"));
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new Error("Malformed encrypted value");
  const decipher = createDecipheriv(ALGORITHM, await getEncryptionKey(), iv, { authTagLength: TAG_BYTES });
  if (aad !== undefined) decipher.setAAD(Buffer.from(aad, "utf8"));
  decipher.setAuthTag(tag);
  const plaintext = Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
  return JSON.parse(plaintext) as T;
}
