// GET and POST /hosted/lists/{token}/collaborators (SPEC 4.2): owner only.
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { badRequest } from "~/lib/api/errors";
import { inviteCollaborator, listCollaborators } from "~/domains/lists/collaborators.server";
import { collaboratorSchema, listAccessErrors, tokenParams } from "~/domains/lists/schemas";

// `userId` as in the SPEC; `user_id` as in the rest of the API's bodies. Read
// in the handler, not as the route's `body`: the domain checks the caller owns
// the list before it asks for the invitee (403/404 before 400 missing_user).
const inviteBody = z.object({ userId: z.string().trim().optional(), user_id: z.string().trim().optional() });

function shareToken(params: Record<string, string | undefined>): string {
  if (!params.token) throw badRequest("missing_params", "Share token missing from the path");
  return params.token;
}

export const loader = endpoint({
  GET: route(
    "user",
    {
      summary: "The collaborators (editors) of a list, oldest first (owner only)",
      params: tokenParams,
      response: z.object({ collaborators: z.array(collaboratorSchema) }),
      errors: { ...listAccessErrors, missing_params: 400 },
    },
    async ({ params, user }) => ({
      collaborators: await listCollaborators(shareToken(params), user.userId),
    }),
  ),
  POST: route(
    "user",
    {
      summary: "Invite one of the owner's friends as a collaborator (owner only); a follower is upgraded",
      description: "Body `{userId}` (alias `user_id`): the friend's user id.",
      params: tokenParams,
      response: z.object({ ok: z.literal(true), collaborator: collaboratorSchema }),
      errors: { ...listAccessErrors, missing_params: 400, missing_user: 400, self_invite: 400, not_a_friend: 403, upsert_failed: 500 },
    },
    async ({ params, user, body }) => {
      const parsed = inviteBody.safeParse(body ?? {});
      const inviteeId = parsed.success ? parsed.data.userId || parsed.data.user_id || undefined : undefined;
      const collaborator = await inviteCollaborator(shareToken(params), user.userId, inviteeId);
      return { ok: true, collaborator };
    },
  ),
});
export const action = loader;
