// The shopper's display name (docs/identity.md "Account basics"): what share
// pages, link previews and collaborator lists show. Chosen by the shopper,
// never derived from an e-mail address. Shared by the API and the pages.

export const DISPLAY_NAME_MAX = 60;

// Control and format characters (bidi overrides, zero-width joiners…) and line/paragraph separators.
const FORBIDDEN = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

export type DisplayNameCheck = { ok: true; name: string | null } | { ok: false; reason: "too_long" | "control_characters" };

/** Trimmed and NFC-normalised; empty means "no name" (null). */
export function checkDisplayName(raw: string): DisplayNameCheck {
  const name = raw.normalize("NFC").trim();
  if (FORBIDDEN.test(name)) return { ok: false, reason: "control_characters" };
  if ([...name].length > DISPLAY_NAME_MAX) return { ok: false, reason: "too_long" };
  return { ok: true, name: name || null };
}
