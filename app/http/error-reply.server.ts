// The one error renderer of every HTTP door (API routes, pages that answer
// in the API's terms, webhooks): anything thrown becomes the SPEC error body
// `{error, message?, …}` with its status and headers, logged when unexpected;
// a database that does not answer is a 503 (noted once per outage).
import { json as responseJson } from "@remix-run/node";
import { databaseDown, noteUnavailable } from "~/db/availability.server";
import { isDatabaseUnavailable } from "~/db/errors";
import { errorBody } from "~/lib/api/errors";
import { jsonReply, type ApiReply } from "~/lib/api/http";
import { applySecurityHeaders } from "~/lib/http/security-headers";
import { errorFields, log } from "~/lib/log.server";

const DATABASE = { unavailable: isDatabaseUnavailable, down: databaseDown };

/**
 * Status, body and headers for anything a route threw: logged when
 * unexpected; a database that does not answer is a 503 (noted once per outage).
 */
export function failure(err: unknown, method: string, pathname: string) {
  const answer = errorBody(err, DATABASE);
  if (answer.unavailable) noteUnavailable(err, `${method} ${pathname}`);
  else if (answer.unexpected) log.error("unhandled error", { method, path: pathname, ...errorFields(err) });
  return answer;
}

/** The error reply of the API for anything a route threw (logged when unexpected); no cache keeps it (a 404 may stop being one). */
export function errorReply(err: unknown, request: { method: string; pathname: string }): ApiReply {
  const { status, body, headers } = failure(err, request.method, request.pathname);
  const reply = jsonReply(body, status, { "cache-control": "no-store", ...headers });
  applySecurityHeaders(reply.headers, request.pathname);
  return reply;
}

/** The same, as a Response, for the Remix routes that answer in the API's terms (scripts, media, webhooks). */
export function errorResponse(err: unknown, request: Request): Response {
  const pathname = new URL(request.url).pathname;
  const { status, body, headers } = failure(err, request.method, pathname);
  const response = responseJson(body, { status, headers });
  applySecurityHeaders(response.headers, pathname);
  return response;
}

