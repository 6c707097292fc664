// `POST /session/cookie` {access_token} and `DELETE /session/cookie`: the
// hosted dialog tells the service's own pages who is signed in (a first-party
// `wish_user` cookie, see site-session.server.ts). Not under /api/v1: it is
// part of the site, so the HTTP server accepts it from this origin only
// (app/lib/http/page-guard.ts).
import { z } from "zod";
import { endpoint, json, remixRoute, route } from "~/api/endpoint.server";
import { siteTokenOfAccessToken } from "~/domains/identity/site-session.server";
import { clearedCookie, setCookie, SITE_COOKIE } from "~/http/cookies.server";

const body = z.object({ access_token: z.string().min(1).max(8192) });

const sessionCookie = endpoint({
  POST: route(
    "none",
    {
      summary: "Trade a user access token for the site's first-party sign-in cookie (same origin only)",
      body,
      response: z.object({ ok: z.literal(true), expires_at: z.number().int().describe("Unix time the cookie expires") }),
      errors: { unauthorized: 401 },
    },
    async ({ body }) => {
      const site = await siteTokenOfAccessToken(body.access_token);
      return json({ ok: true, expires_at: site.expiresAt }, { headers: { "Set-Cookie": setCookie(SITE_COOKIE, site), "Cache-Control": "no-store" } });
    },
  ),
  DELETE: route(
    "none",
    { summary: "Remove the site's sign-in cookie", response: z.object({ ok: z.literal(true) }) },
    () => json({ ok: true }, { headers: { "Set-Cookie": clearedCookie(SITE_COOKIE), "Cache-Control": "no-store" } }),
  ),
});
export const loader = remixRoute(sessionCookie);
export const action = loader;
