// How the consumer routes show another user, and how their database failures
// become the named 500 codes of SPEC 7.6.
import { ApiError } from "~/lib/api/errors";
import { safeImageUrl } from "~/lib/api/schemas";
import { errorFields, log } from "~/lib/log.server";
import type { User } from "~/db.server";

/** Enough to recognise someone; never their e-mail address. */
export const personSelect = { id: true, displayName: true, username: true, avatarUrl: true } as const;

export type PersonRow = Pick<User, "id" | "displayName" | "username" | "avatarUrl">;

export function personJson(user: PersonRow) {
  return {
    id: user.id,
    displayName: user.displayName,
    username: user.username,
    avatarUrl: safeImageUrl(user.avatarUrl),
  };
}

export type Person = ReturnType<typeof personJson>;

/** Runs `fn`; a database failure becomes 500 `code` (logged), API errors pass unchanged. */
export async function dbStep<T>(code: string, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ApiError) throw err;
    log.error(`${what} failed`, errorFields(err));
    throw new ApiError(500, code, `Could not ${what}`);
  }
}

/** Positive integer ids in paths; anything else is answered like an unknown id. */
export function pathId(raw: string | undefined): number | null {
  if (!raw || !/^[1-9][0-9]{0,15}$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : null;
}
