// `POST /imports/{id}/sync`: fetch the source list again and add items the target list does not hold yet.
import { endpoint, route } from "~/api/endpoint.server";
import { guarded, parseImportId, syncImport } from "~/domains/imports/imports.server";
import { clientAddress } from "~/lib/api/client-address";
import { saverAddress } from "~/domains/metering/actions.server";
import { importIdParams, syncErrors, syncResultSchema } from "./schemas";

export const loader = endpoint({
  POST: route(
    "user",
    {
      summary: "Re-sync a list import: fetch the page again, add new items, keep the ones already in the list",
      description: "Items are matched by canonical URL; the ones the list holds are left as they are.",
      params: importIdParams,
      response: syncResultSchema,
      errors: syncErrors,
    },
    ({ user, params, context }) => guarded(() => syncImport(user.userId, parseImportId(params.id), saverAddress(clientAddress(context)))),
  ),
});
export const action = loader;
