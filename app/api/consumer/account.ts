// GET, PATCH and DELETE /account: the signed-in consumer's own account (SPEC 7.6).
import { z } from "zod";
import { endpoint, LIVE_SESSION, route } from "~/api/endpoint.server";
import { getAccount, updateAccount } from "~/domains/consumer/account.server";
import { deleteAccount } from "~/flows/account-deletion.server";
import { account, accountChanges } from "./schemas";

export const loader = endpoint({
  GET: route(
    "user",
    {
      summary: "The signed-in user's profile and preferences",
      response: z.object({ account }),
      errors: { db_error: 500 },
      example: {},
    },
    ({ user }) => getAccount(user.userId),
  ),
  PATCH: route(
    "user",
    {
      summary: "Update display name, username, avatar or spoiler protection (null clears a profile field)",
      body: accountChanges,
      codes: { invalid: { displayName: "invalid_display_name", username: "invalid_username", avatarUrl: "invalid_avatar_url" } },
      response: z.object({ ok: z.literal(true), account }),
      errors: { username_taken: 409, update_failed: 500 },
      example: { body: { displayName: "Alex" } },
    },
    ({ user, body }) => updateAccount(user.userId, { ...body, ...(body.displayName === "" ? { displayName: null } : {}) }),
  ),
  DELETE: route(
    "user",
    {
      summary: "Delete the account: own lists and items, memberships, friends, notifications; sessions end",
      description: "Needs a live sign-in session. When the deletion fails (500 `delete_failed`) nothing is removed.",
      response: z.object({
        ok: z.literal(true),
        deleted: z.object({ lists: z.number().int(), memberships: z.number().int(), friends: z.number().int() }),
      }),
      errors: { delete_failed: 500 },
    },
    ({ user }) => deleteAccount(user.userId),
    LIVE_SESSION,
  ),
});
export const action = loader;
