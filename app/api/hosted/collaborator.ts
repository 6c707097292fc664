// DELETE /hosted/lists/{token}/collaborators/{userId} (SPEC 4.2): owner only.
import { endpoint, route } from "~/api/endpoint.server";
import { badRequest } from "~/lib/api/errors";
import { removeCollaborator } from "~/domains/lists/collaborators.server";
import { listAccessErrors, okSchema, tokenParams } from "~/domains/lists/schemas";
import { z } from "zod";

export const loader = endpoint({
  DELETE: route(
    "user",
    {
      summary: "Remove a collaborator from a list (owner only)",
      description: "Removes editors only.",
      params: tokenParams.extend({ userId: z.string() }),
      response: okSchema,
      errors: { ...listAccessErrors, missing_params: 400, upsert_failed: 500 },
    },
    async ({ params, user }) => {
      if (!params.token || !params.userId) throw badRequest("missing_params", "Share token and user id are required");
      await removeCollaborator(params.token, user.userId, params.userId);
      return { ok: true };
    },
  ),
});
export const action = loader;
