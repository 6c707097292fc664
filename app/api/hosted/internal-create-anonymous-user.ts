// POST /hosted/create-anonymous-user (SPEC 4.2, internal): service key only.
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { badRequest } from "~/lib/api/errors";
import { objectBody } from "~/lib/api/schemas";
import { createAnonymousUser } from "~/domains/identity/legacy.server";
import { sessionSchema } from "~/domains/identity/schemas";

// `legacy_id` (alias `legacyId`): absent, blank or not a string is 400 missing_data.
const createBody = objectBody(z.object({ legacy_id: z.string().trim().optional(), legacyId: z.string().trim().optional() }));
const missingData = { legacy_id: "missing_data", legacyId: "missing_data" };

export const loader = endpoint({
  POST: route(
    "service",
    {
      summary: "Create (or reuse) the anonymous user of a legacy session id, with a new session (internal)",
      description: "Internal: needs `x-service-key: <SERVICE_KEY>` (no anon key, no user token); closed (401) while `SERVICE_KEY` is unset. Body `{legacy_id}`.",
      body: createBody,
      codes: { missing: missingData, invalid: missingData },
      response: z.object({ ok: z.literal(true), user_id: z.string(), session: sessionSchema }),
      errors: { missing_data: 400, db_insert_failed: 500, auth_failed: 500 },
    },
    async ({ body }) => {
      const legacyId = body.legacy_id || body.legacyId;
      if (!legacyId) throw badRequest("missing_data", "legacy_id is required");
      const { userId, session } = await createAnonymousUser(legacyId);
      return { ok: true, user_id: userId, session };
    },
  ),
});
export const action = loader;
