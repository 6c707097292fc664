// POST /hosted/create-anonymous-user (SPEC 4.2, internal): service key only.
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { badRequest } from "~/lib/api/errors";
import { createAnonymousUser } from "~/domains/identity/legacy.server";

const createBody = z.object({ legacy_id: z.string().trim().optional(), legacyId: z.string().trim().optional() });

export const loader = endpoint({
  POST: route("service", async ({ body }) => {
    const parsed = createBody.safeParse(body ?? {});
    const legacyId = parsed.success ? parsed.data.legacy_id || parsed.data.legacyId : undefined;
    if (!legacyId) throw badRequest("missing_data", "legacy_id is required");
    const { userId, session } = await createAnonymousUser(legacyId);
    return { ok: true, user_id: userId, session };
  }),
});
export const action = loader;
