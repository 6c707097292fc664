// `GET /imports/{id}` and `DELETE /imports/{id}` (the imported items stay in the list).
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { deleteImport, getImport, guarded, parseImportId } from "~/domains/imports/imports.server";
import { importIdParams, importSchema } from "./schemas";

export const loader = endpoint({
  GET: route(
    "user",
    {
      summary: "One of the caller's list imports",
      params: importIdParams,
      response: z.object({ import: importSchema }),
      errors: { not_found: 404, internal: 500 },
    },
    ({ user, params }) => guarded(() => getImport(user.userId, parseImportId(params.id))),
  ),
  DELETE: route(
    "user",
    {
      summary: "Forget a list import (its items stay in the list)",
      params: importIdParams,
      response: z.object({ ok: z.literal(true), id: z.number().int() }),
      errors: { not_found: 404, internal: 500 },
    },
    ({ user, params }) => guarded(() => deleteImport(user.userId, parseImportId(params.id))),
  ),
});
export const action = loader;
