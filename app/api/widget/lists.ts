import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { listsOfUser } from "~/domains/lists/lists.server";
import { hostedListSchema } from "~/domains/lists/schemas";

export const loader = endpoint({
  POST: route(
    "widget+user",
    {
      summary: "The signed-in user's lists, for the widget's list picker",
      response: z.object({ lists: z.array(hostedListSchema) }),
    },
    ({ user }) => listsOfUser(user.userId),
  ),
});
export const action = loader;
