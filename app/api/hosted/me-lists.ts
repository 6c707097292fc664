import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { createList } from "~/domains/lists/lists.server";
import { hostedListSchema } from "~/domains/lists/schemas";
import { objectBody } from "~/lib/api/schemas";

/** `POST /hosted/me/lists` (SPEC 4.2): 400 `missing_name` when name is absent or blank. */
export const createListBody = objectBody(
  z.object({
    name: z.string().max(200).trim().min(1),
    description: z.string().max(2000).nullish(),
  }),
);

export const loader = endpoint({
  POST: route(
    "user",
    {
      summary: "Create a list owned by the user",
      body: createListBody,
      codes: { missing: { name: "missing_name" } },
      response: z.object({ ok: z.literal(true), list: hostedListSchema, token: z.string().describe("The new list's share token") }),
    },
    ({ user, body }) => createList(user.userId, body),
  ),
});
export const action = loader;
