// POST /hosted/migrate-legacy-maui-user (SPEC 4.2, internal, deprecated): service key only.
import { z } from "zod";
import { endpoint, json, route } from "~/api/endpoint.server";
import { badRequest } from "~/lib/api/errors";
import { objectBody } from "~/lib/api/schemas";
import { markLegacyUserMigrated } from "~/domains/identity/legacy.server";

const migrateBody = objectBody(z.object({ identifier: z.string().trim().optional() }));
const missingData = { identifier: "missing_data" };

export const loader = endpoint({
  POST: route(
    "service",
    {
      deprecated: true,
      summary: "Mark a legacy user as migrated (internal, deprecated: answers with a Deprecation header)",
      description: "Internal: needs `x-service-key: <SERVICE_KEY>` (no anon key, no user token); closed (401) while `SERVICE_KEY` is unset. Body `{identifier}`. Answers with `Deprecation: true`.",
      body: migrateBody,
      codes: { missing: missingData, invalid: missingData },
      response: z.object({ ok: z.literal(true), deprecated: z.literal(true) }),
      errors: { missing_data: 400, no_legacy_user: 404, flag_update_failed: 500 },
    },
    async ({ body }) => {
      if (!body.identifier) throw badRequest("missing_data", "identifier is required");
      await markLegacyUserMigrated(body.identifier);
      return json({ ok: true, deprecated: true }, { headers: { Deprecation: "true" } });
    },
  ),
});
export const action = loader;
