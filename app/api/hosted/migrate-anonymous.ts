// POST /hosted/migrate-anonymous-to-provider (SPEC 4.2): the signed-in user
// takes over an anonymous account, which proves itself with its own token.
import { z } from "zod";
import { endpoint, LIVE_SESSION, route } from "~/api/endpoint.server";
import { badRequest } from "~/lib/api/errors";
import { objectBody } from "~/lib/api/schemas";
import { migrateAnonymousToProvider } from "~/flows/account-merge.server";
import { movedSchema } from "~/domains/identity/schemas";

// `anonymous_access_token` (alias `anonymousAccessToken`): absent, blank or not a string is 400 missing_data.
const migrateBody = objectBody(
  z.object({
    anonymous_access_token: z.string().trim().optional(),
    anonymousAccessToken: z.string().trim().optional(),
  }),
);
const missingData = { anonymous_access_token: "missing_data", anonymousAccessToken: "missing_data" };

export const loader = endpoint({
  POST: route(
    "user",
    {
      summary: "Move an anonymous account's lists, memberships, friends and items to the signed-in user",
      description: "Body `{anonymous_access_token}`. Everything moves in one transaction; safe to retry (a retry after a completed migration answers ok with nothing moved). The two default lists become one (the caller's), a product in both keeps one item, a moved list whose name the caller uses already is renamed (\"Birthday (2)\").",
      body: migrateBody,
      codes: { missing: missingData, invalid: missingData },
      response: z.object({
        ok: z.literal(true),
        moved: movedSchema,
      }),
      errors: { missing_data: 400, old_user_not_anonymous: 400, old_user_not_found: 404, migration_failed: 500 },
    },
    async ({ user, body }) => {
      const token = body.anonymous_access_token || body.anonymousAccessToken;
      if (!token) throw badRequest("missing_data", "anonymous_access_token is required");
      return { ok: true, moved: await migrateAnonymousToProvider(user.userId, token) };
    },
    LIVE_SESSION,
  ),
});
export const action = loader;
