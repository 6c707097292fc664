// GET and POST /hosted/lists/{token}/collaborators (SPEC 4.2): owner only.
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { badRequest } from "~/lib/api/errors";
import { inviteCollaborator, listCollaborators } from "~/domains/lists/collaborators.server";

// `userId` as in the SPEC; `user_id` as in the rest of the API's bodies.
const inviteBody = z.object({ userId: z.string().trim().optional(), user_id: z.string().trim().optional() });

function shareToken(params: Record<string, string | undefined>): string {
  if (!params.token) throw badRequest("missing_params", "Share token missing from the path");
  return params.token;
}

export const loader = endpoint({
  GET: route("user", async ({ params, user }) => ({
    collaborators: await listCollaborators(shareToken(params), user.userId),
  })),
  POST: route("user", async ({ params, user, body }) => {
    const parsed = inviteBody.safeParse(body ?? {});
    const inviteeId = parsed.success ? parsed.data.userId || parsed.data.user_id || undefined : undefined;
    const collaborator = await inviteCollaborator(shareToken(params), user.userId, inviteeId);
    return { ok: true, collaborator };
  }),
});
export const action = loader;
