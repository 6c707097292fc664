// The share page `/{lang}/list/{token}` over HTTP (docs/storefront.md "Share pages and
// link previews"): GET/HEAD render the page (share-page-view.ts), POST is the
// purchased toggle's form post. `npm start` answers it here, before express
// and Remix (handleSharePageRequest, called by app/server/main.ts through the
// server build), like /api/v1 and the SDK scripts; the Remix route
// app/routes/$lang.list.$token.ts hands other languages and `remix vite:dev`
// to the same sharePageReply.
import type { IncomingMessage, ServerResponse } from "node:http";
import { publicReads } from "~/db/replica.server";
import { env } from "~/env.server";
import { markPurchasedFromPage, sharePage } from "~/domains/lists/share-page.server";
import { messagePageHtml, sharePageHtml } from "~/domains/lists/share-page-view";
import { isShareLang, type ShareLang } from "~/domains/lists/share-texts";
import { ApiError, badRequest } from "~/lib/api/errors";
import { jsonReply, ReplyHeaders, type ApiReply, type ApiRequest } from "~/lib/api/http";
import { apiRequestOfNode, sendReply } from "~/lib/api/node-adapter.server";
import { applySecurityHeaders, newNonce } from "~/lib/http/security-headers";
import { failure } from "~/http/error-reply.server";
import { readCookie, setCookie, SITE_COOKIE, VIEWER_COOKIE, viewerSignals } from "~/http/cookies.server";
import { clientAddress } from "~/lib/api/client-address";

const HTML = "text/html; charset=utf-8";

function htmlReply(pathname: string, status: number, html: string, headers: Record<string, string>, nonce?: string): ApiReply {
  // Encoded once: a string body would be scanned for its length and then encoded again on the socket.
  const body = Buffer.from(html, "utf8");
  const reply = new ReplyHeaders({ "content-type": HTML, "content-length": String(body.length), ...headers });
  applySecurityHeaders(reply, pathname, nonce);
  return { status, headers: reply, body };
}

/** The localized 404 page: private and unknown lists alike, and languages other than de and en. */
const notFoundReply = (pathname: string, lang: ShareLang) =>
  htmlReply(pathname, 404, messagePageHtml(lang, "not_found"), { "cache-control": "no-store", "x-robots-tag": "noindex" });

/** The page, with the message of a form post that failed when `failed`; 404 page for private and unknown lists. */
async function pageReply(request: ApiRequest, context: unknown, lang: ShareLang, token: string, status = 200, failed = false): Promise<ApiReply> {
  const reveal = new URLSearchParams(request.search).get("reveal") === "1";
  try {
    const visitor = viewerSignals(request, clientAddress(context));
    const { page, newViewerId } = await sharePage({ visitor, siteToken: readCookie(request, SITE_COOKIE), token, lang, reveal });
    const nonce = newNonce();
    const headers: Record<string, string> = { "cache-control": "private, no-store" };
    if (newViewerId) headers["set-cookie"] = setCookie(VIEWER_COOKIE, newViewerId);
    return htmlReply(request.pathname, status, sharePageHtml(page, { nonce, failed }), headers, nonce);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return notFoundReply(request.pathname, lang);
    throw err;
  }
}

/** The form's fields (url-encoded or multipart), or null when the body is no form. */
async function readForm(request: ApiRequest): Promise<URLSearchParams | null> {
  const type = request.headers.get("content-type") ?? "";
  const body = await request.readBody(env.PAGE_MAX_BODY_BYTES);
  if (/^application\/x-www-form-urlencoded/i.test(type)) return new URLSearchParams(body?.toString("utf8") ?? "");
  if (/^multipart\/form-data/i.test(type) && body) {
    const form = await new Response(Uint8Array.from(body), { headers: { "content-type": type } }).formData().catch(() => null);
    if (!form) return null;
    const fields = new URLSearchParams();
    form.forEach((value, name) => {
      if (typeof value === "string") fields.append(name, value);
    });
    return fields;
  }
  return null;
}

/**
 * The purchased toggle: without JavaScript a plain form post answered 303
 * back to the page (post/redirect/get, keeping ?reveal); with the page's
 * script (`enhanced=1`) a JSON answer, `{ok, purchased}` or the SPEC error body.
 */
async function toggleReply(request: ApiRequest, context: unknown, lang: ShareLang, token: string): Promise<ApiReply> {
  let form: URLSearchParams | null = null;
  try {
    form = await readForm(request);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return jsonReplyAt(request.pathname, err.body(), err.status); // over PAGE_MAX_BODY_BYTES
  }
  const enhanced = form?.get("enhanced") === "1";
  try {
    if (!form) throw badRequest("invalid_input", "Send the form's fields");
    const purchased = form.get("purchased");
    if (purchased !== "true" && purchased !== "false") throw badRequest("invalid_input", "purchased must be true or false");
    const result = await markPurchasedFromPage(token, form.get("itemId") ?? undefined, purchased === "true");
    if (enhanced) return jsonReplyAt(request.pathname, result, 200);
    const headers = new ReplyHeaders({ location: `${request.pathname}${request.search}`, "cache-control": "no-store" });
    applySecurityHeaders(headers, request.pathname);
    return { status: 303, headers, body: null };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (enhanced) return jsonReplyAt(request.pathname, err.body(), err.status);
    // A plain form post lands on the localized 404 page, or on the page again with a message.
    if (err.status === 404) return notFoundReply(request.pathname, lang);
    return pageReply(request, context, lang, token, err.status, true);
  }
}

function jsonReplyAt(pathname: string, body: unknown, status: number): ApiReply {
  const reply = jsonReply(body, status, { "cache-control": "no-store" });
  applySecurityHeaders(reply.headers, pathname);
  return reply;
}

/**
 * The answer for `/{lang}/list/{token}` (`lang` and `token` decoded from the
 * path). GET and HEAD show the page, every other method is the form post.
 * Unexpected failures are logged and answered with an error page.
 */
export async function sharePageReply(request: ApiRequest, context: unknown, params: { lang: string | undefined; token: string | undefined }): Promise<ApiReply> {
  try {
    if (!isShareLang(params.lang) || !params.token) {
      await request.discardBody();
      return notFoundReply(request.pathname, "en");
    }
    const { lang, token } = params;
    const reply =
      request.method === "GET" || request.method === "HEAD"
        ? // The read replica may serve it (app/db/replica.server.ts); the page a form post renders reads the primary.
          await publicReads(() => pageReply(request, context, lang, token))
        : await toggleReply(request, context, params.lang, params.token);
    await request.discardBody();
    if (request.method === "HEAD") reply.body = null;
    return reply;
  } catch (err) {
    const lang = isShareLang(params.lang) ? params.lang : "en";
    // The database does not answer: say so, and let no cache keep this page.
    const { status, headers, unavailable } = failure(err, request.method, request.pathname);
    if (unavailable) return htmlReply(request.pathname, status, messagePageHtml(lang, "unavailable"), { ...headers, "cache-control": "no-store" });
    return htmlReply(request.pathname, 500, messagePageHtml(lang, "error"), { "cache-control": "no-store" });
  }
}

const PAGE = /^\/(de|en)\/list\/([^/]+)$/;

/**
 * The node:http path: GET, HEAD and POST of `/{de,en}/list/{token}`;
 * false (nothing sent) for anything else, which Remix then answers.
 * `pathname` is valid percent-encoding (main.ts checked).
 */
export function handleSharePageRequest(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  search: string,
  context: { clientAddress: string | null },
): Promise<void> | false {
  const method = req.method ?? "GET";
  if (method !== "GET" && method !== "HEAD" && method !== "POST") return false;
  const match = PAGE.exec(pathname);
  if (!match) return false;
  const request = apiRequestOfNode(req, pathname, search, res);
  return sharePageReply(request, context, { lang: match[1], token: decodeURIComponent(match[2]!) }).then((reply) => sendReply(res, reply));
}
