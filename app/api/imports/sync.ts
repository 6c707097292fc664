// `POST /imports/sync {id}`: the body form of the re-sync (400 `missing_id` without an id).
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { guarded, syncImport } from "~/domains/imports/imports.server";
import { clientAddress } from "~/lib/api/client-address";
import { saverAddress } from "~/domains/metering/actions.server";
import { syncErrors, syncResultSchema } from "./schemas";

export const loader = endpoint({
  POST: route(
    "user",
    {
      summary: "Re-sync a list import named in the body (same as POST /imports/{id}/sync)",
      body: z.object({ id: z.union([z.number().int().positive().max(Number.MAX_SAFE_INTEGER), z.string().regex(/^\d{1,15}$/).transform(Number)]) }),
      codes: { missing: { id: "missing_id" }, invalid: { id: "missing_id" } },
      response: syncResultSchema,
      errors: syncErrors,
    },
    ({ user, body, context }) => guarded(() => syncImport(user.userId, body.id, saverAddress(clientAddress(context)))),
  ),
});
export const action = loader;
