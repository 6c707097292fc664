import { z } from "zod";
import { route } from "~/api/endpoint.server";
import { DISCONTINUED_AT, discontinuedEndpoint } from "./discontinued";

export const loader = discontinuedEndpoint(
  route(
    "none",
    {
      summary: "The ad studio's status: discontinued",
      response: z.object({ status: z.literal("discontinued"), discontinued_at: z.string() }),
      example: {},
    },
    () => ({ status: "discontinued", discontinued_at: DISCONTINUED_AT }),
  ),
);
export const action = loader;
