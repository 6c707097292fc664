// `POST /session/token`: the service's own pages (save dialog, "My lists")
// trade the first-party `wish_user` cookie for a short-lived access token of
// the same sign-in session. No refresh token exists in the browser, so no
// page can invalidate another's (site-session.server.ts). Same origin only
// (app/lib/http/page-guard.ts); the cookie is SameSite=Lax, so other sites
// cannot send it with a POST either.
import { z } from "zod";
import { endpoint, json, remixRoute, route } from "~/api/endpoint.server";
import { authUserSchema } from "~/domains/identity/schemas";
import { siteAccessToken } from "~/domains/identity/site-session.server";
import { readCookie, setCookie, SITE_COOKIE } from "~/http/cookies.server";

const sessionToken = endpoint({
  POST: route(
    "none",
    {
      summary: "A short-lived access token for the site's signed-in shopper, or null (same origin only)",
      response: z.object({
        session: z
          .object({
            access_token: z.string(),
            token_type: z.literal("bearer"),
            expires_in: z.number().int(),
            expires_at: z.number().int(),
            user: authUserSchema,
          })
          .nullable()
          .describe("null when nobody is signed in on this site (no cookie, or its sign-in session ended)"),
      }),
    },
    async ({ request }) => {
      const { session, renewed } = await siteAccessToken(readCookie(request, SITE_COOKIE));
      const headers: Record<string, string> = { "Cache-Control": "no-store" };
      if (renewed) headers["Set-Cookie"] = setCookie(SITE_COOKIE, renewed);
      return json({ session }, { headers });
    },
  ),
});
export const loader = remixRoute(sessionToken);
export const action = loader;
