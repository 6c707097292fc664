// DELETE /hosted/me/connections/{partnerId}: Disconnect on My lists
// (docs/identity.md, "Joins and merges").
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { badRequest } from "~/lib/api/errors";
import { disconnect } from "~/domains/shop-customers/connections.server";

const PARTNER_ID = /^[1-9][0-9]{0,9}$/;

export const loader = endpoint({
  DELETE: route(
    "user",
    {
      summary: "Disconnect a shop from the signed-in account",
      description:
        "The shop owner's shops no longer recognise the shopper (the consent ends, and with it every shopper credential and page grant of that partner), and the account is no longer joined with its stores' customers: such a customer gets a fresh store account of their own on their next visit. Every list and item stays in the account. 404 when the shop is not connected.",
      params: z.object({ partnerId: z.string().describe("The `partner_id` of a connection") }),
      response: z.object({ ok: z.literal(true), disconnected: z.object({ shops: z.number().int(), consents: z.number().int() }) }),
      errors: { invalid_partner: 400 },
    },
    async ({ params, user }) => {
      const id = params.partnerId ?? "";
      if (!PARTNER_ID.test(id) || Number(id) > 2_147_483_647) throw badRequest("invalid_partner", "The partner id is not a number");
      return disconnect(user.userId, Number(id));
    },
  ),
});
export const action = loader;
