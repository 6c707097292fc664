// POST /hosted/migrate-anonymous-to-provider (SPEC 4.2): the signed-in user
// takes over an anonymous account, which proves itself with its own token.
import { z } from "zod";
import { endpoint, LIVE_SESSION, route } from "~/api/endpoint.server";
import { badRequest } from "~/lib/api/errors";
import { migrateAnonymousToProvider } from "~/domains/identity/account-migration.server";

const migrateBody = z.object({
  anonymous_access_token: z.string().trim().optional(),
  anonymousAccessToken: z.string().trim().optional(),
});

export const loader = endpoint({
  POST: route("user", async ({ user, body }) => {
    const parsed = migrateBody.safeParse(body ?? {});
    const token = parsed.success ? parsed.data.anonymous_access_token || parsed.data.anonymousAccessToken : undefined;
    if (!token) throw badRequest("missing_data", "anonymous_access_token is required");
    return { ok: true, moved: await migrateAnonymousToProvider(user.userId, token) };
  }, LIVE_SESSION),
});
export const action = loader;
