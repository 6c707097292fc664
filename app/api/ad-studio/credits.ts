import { z } from "zod";
import { route } from "~/api/endpoint.server";
import { DISCONTINUED_AT, discontinuedEndpoint } from "./discontinued";

// Old clients show the balance; the studio's credits are gone.
export const loader = discontinuedEndpoint(
  route(
    "none",
    {
      summary: "The ad studio's credit balance: always 0 since it was discontinued",
      response: z.object({ credits: z.literal(0), discontinued_at: z.string() }),
      example: {},
    },
    () => ({ credits: 0, discontinued_at: DISCONTINUED_AT }),
  ),
);
export const action = loader;
