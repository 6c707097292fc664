import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { createList } from "~/domains/lists/lists.server";
import { hostedListSchema } from "~/domains/lists/schemas";

export const loader = endpoint({
  POST: route(
    "user",
    {
      summary: "Create a list owned by the user",
      response: z.object({ ok: z.literal(true), list: hostedListSchema, token: z.string().describe("The new list's share token") }),
      errors: { missing_name: 400 },
    },
    ({ user, body }) => createList(user.userId, body),
  ),
});
export const action = loader;
