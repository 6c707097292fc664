import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { listsOfUser } from "~/domains/lists/lists.server";
import { hostedListSchema } from "~/domains/lists/schemas";

export const loader = endpoint({
  POST: route(
    "user",
    {
      summary: "The lists the user owns or edits, most recently updated first",
      description: "Lists the user only follows are not included.",
      response: z.object({ lists: z.array(hostedListSchema) }),
    },
    ({ user }) => listsOfUser(user.userId),
  ),
});
export const action = loader;
