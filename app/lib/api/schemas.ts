// Request shapes shared by routes and domains: turning a zod failure into the
// SPEC error body, and the one rule for URLs a user may store.
import { z } from "zod";
import { ApiError } from "./errors";

/** Where the service serves its own copies of images (app/routes/media.images.$file.ts). */
export const MEDIA_PATH_PREFIX = "/media/images/";
const MEDIA_PATH = /^\/media\/images\/[A-Za-z0-9._-]+$/;
export const MAX_URL_LENGTH = 2048;

/** An absolute `http:`/`https:` URL with a host; anything else (javascript:, data:, vbscript:, relative) is not. */
export function isHttpUrl(value: string): boolean {
  if (value.length > MAX_URL_LENGTH || !/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/** An image a page may render: an absolute http(s) URL or one of the service's own media paths. */
export function isImageUrl(value: string): boolean {
  return isHttpUrl(value) || MEDIA_PATH.test(value);
}

/** Stored URLs pass this before they are served (values stored before the check came in). */
export const safeImageUrl = (value: string | null | undefined): string | null =>
  value && isImageUrl(value) ? value : null;

/** Every URL a user supplies for a page or webhook: absolute http(s) only. */
export const httpUrlSchema = z.string().max(MAX_URL_LENGTH).refine(isHttpUrl, "must be an absolute http(s) URL");

/** Every image URL a user supplies: absolute http(s), or the service's own `/media/images/<file>`. */
export const imageUrlSchema = z
  .string()
  .max(MAX_URL_LENGTH)
  .refine(isImageUrl, `must be an absolute http(s) URL or a ${MEDIA_PATH_PREFIX}<file> path`);

/** A plain JSON object (not an array, not null). */
export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * A request body read as `schema`, where a body that is no JSON object (none,
 * an array, a string, null) reads as `{}`: every field is then "missing" and
 * gets its field's SPEC code rather than a 400 `invalid_input` for the body.
 */
export const objectBody = <T extends z.ZodObject>(schema: T) =>
  z.preprocess((value) => (isPlainObject(value) ? value : {}), schema);

/** Per-field SPEC codes: `missing` when the field is absent or blank, `invalid` for any other failure of that field. */
export interface ErrorCodes {
  missing?: Record<string, string>;
  invalid?: Record<string, string>;
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * Parses `input` with `schema`; the first failure becomes 400 `invalid_input`
 * (or the field's SPEC code) with a message naming the field.
 */
export function parseOrThrow<S extends z.ZodType>(
  schema: S,
  input: unknown,
  opts: { where?: "body" | "query"; codes?: ErrorCodes } = {},
): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.map(String).join(".");
  const value = valueAt(input, issue.path);
  const blank = value === undefined || value === null || (typeof value === "string" && value.trim() === "");
  const missing = blank ? opts.codes?.missing?.[field] : undefined;
  if (missing) throw new ApiError(400, missing, `${field} is required`);
  const name = field || opts.where || "body";
  throw new ApiError(400, opts.codes?.invalid?.[field] ?? "invalid_input", `${name}: ${issue.message}`);
}

/** An optional string field where a value of another type is ignored (read as absent) rather than refused. */
export const lenientString = () => z.preprocess((v) => (typeof v === "string" ? v : undefined), z.string().optional());
