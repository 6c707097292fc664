// Reading loosely typed JSON bodies: domain functions validate field by field
// so each missing or malformed field gets its own SPEC error code.

/** The value as an object, or undefined when it is not a plain JSON object. */
export function asObject(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** The body as an object; anything else reads as `{}` so every field is "missing". */
export const fields = (body: unknown): Record<string, unknown> => asObject(body) ?? {};
