// POST /hosted/migrate-legacy-maui-user (SPEC 4.2, internal, deprecated): service key only.
import { z } from "zod";
import { endpoint, json, route } from "~/api/endpoint.server";
import { badRequest } from "~/lib/api/errors";
import { markLegacyUserMigrated } from "~/domains/identity/legacy.server";

const migrateBody = z.object({ identifier: z.string().trim().optional() });

export const loader = endpoint({
  POST: route("service", async ({ body }) => {
    const parsed = migrateBody.safeParse(body ?? {});
    const identifier = parsed.success ? parsed.data.identifier : undefined;
    if (!identifier) throw badRequest("missing_data", "identifier is required");
    await markLegacyUserMigrated(identifier);
    return json({ ok: true, deprecated: true }, { headers: { Deprecation: "true" } });
  }),
});
export const action = loader;
