// POST /hosted/login-legacy-temp-user (SPEC 4.2, internal): service key only.
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { badRequest } from "~/lib/api/errors";
import { loginLegacyUser } from "~/domains/identity/legacy.server";

const loginBody = z.object({ identifier: z.string().trim().optional() });

export const loader = endpoint({
  POST: route("service", async ({ body }) => {
    const parsed = loginBody.safeParse(body ?? {});
    const identifier = parsed.success ? parsed.data.identifier : undefined;
    if (!identifier) throw badRequest("missing_identifier", "identifier is required");
    const { userId, session } = await loginLegacyUser(identifier);
    return { ok: true, user_id: userId, session };
  }),
});
export const action = loader;
