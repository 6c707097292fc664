// GET /hosted/me/connections: the shops connected with the signed-in account,
// "Connected shops" on My lists (docs/identity.md, "Joins and merges").
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { connectionsOf } from "~/domains/shop-customers/connections.server";

export const connectionSchema = z.object({
  partner_id: z.number().int(),
  name: z.string(),
  host: z.string(),
  joined: z.boolean(),
  recognised: z.boolean(),
  since: z.string(),
});

export const loader = endpoint({
  GET: route(
    "user",
    {
      summary: "List the shops connected with the signed-in account",
      description:
        "One entry per shop owner (partner): `joined` when the account is joined with a customer account of its store (`POST /hosted/link-shop-customer`), `recognised` when the shop may recognise the shopper (the shopper saved there in the dialog, or joined). `host` is what the shopper knows the shop by, `since` when the connection began. Newest first.",
      response: z.object({ connections: z.array(connectionSchema) }),
    },
    async ({ user }) => connectionsOf(user.userId),
  ),
});
export const action = loader;
