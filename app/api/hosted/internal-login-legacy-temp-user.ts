// POST /hosted/login-legacy-temp-user (SPEC 4.2, internal): service key only.
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { badRequest } from "~/lib/api/errors";
import { objectBody } from "~/lib/api/schemas";
import { loginLegacyUser } from "~/domains/identity/legacy.server";
import { sessionSchema } from "~/domains/identity/schemas";

const loginBody = objectBody(z.object({ identifier: z.string().trim().optional() }));
const missingIdentifier = { identifier: "missing_identifier" };

export const loader = endpoint({
  POST: route(
    "service",
    {
      summary: "Sign a migrated legacy user in by their legacy identifier (internal)",
      description: "Internal: needs `x-service-key: <SERVICE_KEY>` (no anon key, no user token); closed (401) while `SERVICE_KEY` is unset. Body `{identifier}`.",
      body: loginBody,
      codes: { missing: missingIdentifier, invalid: missingIdentifier },
      response: z.object({ ok: z.literal(true), user_id: z.string(), session: sessionSchema }),
      errors: { missing_identifier: 400, no_legacy_user: 404, auth_failed: 500 },
    },
    async ({ body }) => {
      if (!body.identifier) throw badRequest("missing_identifier", "identifier is required");
      const { userId, session } = await loginLegacyUser(body.identifier);
      return { ok: true, user_id: userId, session };
    },
  ),
});
export const action = loader;
