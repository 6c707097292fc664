// The share page `/{lang}/list/{token}` over HTTP (docs/storefront.md "Share pages and
// link previews"): GET/HEAD compose the page (the lists domain's data, its link
// preview, the shop's accent) and render it (view.ts), POST is the
// purchased toggle's form post. `npm start` answers it here, before express
// and Remix (handleSharePageRequest, called by app/server/main.ts through the
// server build), like /api/v1 and the SDK scripts; the Remix route
// app/routes/$lang.list.$token.ts hands other languages and `remix vite:dev`
// to the same sharePageReply.
import type { IncomingMessage, ServerResponse } from "node:http";
import { publicReads } from "~/db/replica.server";
import { env } from "~/env.server";
import { markPurchasedFromPage, recordSharePageView, sharePage, type SharePageData } from "~/domains/lists/share-page.server";
import { shopAccent } from "~/hosted-pages/accent";
import { isLang, LANGS, type Lang } from "~/i18n/lang";
import { linkPreview } from "../link-preview.server";
import { messagePageHtml, SHARE_PAGE_INLINE_SCRIPTS, sharePageHtml, type SharePage } from "./view";
import { ApiError, badRequest } from "~/lib/api/errors";
import { jsonReply, ReplyHeaders, type ApiReply, type ApiRequest } from "~/lib/api/http";
import { apiRequestOfNode, sendReply } from "~/lib/api/node-adapter.server";
import { applySecurityHeaders, scriptHash } from "~/lib/http/security-headers";
import { bodyEtag, cacheKeyHeaders, etagMatches, sharedCacheControl } from "~/http/shared-cache.server";
import { failure } from "~/http/error-reply.server";
import { readCookie, setCookie, SITE_COOKIE, VIEWER_COOKIE, viewerSignals } from "~/http/cookies.server";
import { clientAddress } from "~/lib/api/client-address";

const HTML = "text/html; charset=utf-8";

async function composeSharePage({ basketColor, ...data }: SharePageData): Promise<SharePage> {
  const { list } = data;
  const detail = { id: data.token, name: list.name, description: list.description, owner_username: list.ownerName, productCount: list.itemCount };
  const preview = await linkPreview({ detail, imageUrls: data.items.map((i) => i.imageUrl) }, data.lang);
  return { ...data, preview, accent: shopAccent(basketColor) };
}
/** The page's fixed inline scripts, allowed by hash: the same CSP on every copy, so a cached page keeps working. */
const SCRIPT_HASHES = SHARE_PAGE_INLINE_SCRIPTS.map(scriptHash);
/** After a form post without JavaScript the page is shown from the origin (`?fresh=1`), never from a cache that has not been purged yet. */
const FRESH_PARAM = "fresh";

function htmlReply(pathname: string, status: number, html: string | Buffer, headers: Record<string, string>): ApiReply {
  // Encoded once: a string body would be scanned for its length and then encoded again on the socket.
  const body = typeof html === "string" ? Buffer.from(html, "utf8") : html;
  const reply = new ReplyHeaders({ "content-type": HTML, "content-length": String(body.length), ...headers });
  applySecurityHeaders(reply, pathname, undefined, SCRIPT_HASHES);
  return { status, headers: reply, body };
}

/** The localized 404 page: private and unknown lists alike, and languages other than de and en. */
const notFoundReply = (pathname: string, lang: Lang) =>
  htmlReply(pathname, 404, messagePageHtml(lang, "not_found"), { "cache-control": "no-store", "x-robots-tag": "noindex" });

/**
 * The page, with the message of a form post that failed when `failed`; 404
 * page for private and unknown lists. A page that is the same for everyone
 * (page.shareable) is cacheable by shared caches, with its body's ETag (304 on
 * If-None-Match) and its cache keys; a signed-in visitor's page, a failed
 * post's page and `?fresh=1` are `private, no-store`. `Vary: Cookie`: the
 * site session cookie makes the page personal.
 */
async function pageReply(request: ApiRequest, context: unknown, lang: Lang, token: string, status = 200, failed = false): Promise<ApiReply> {
  const query = new URLSearchParams(request.search);
  const reveal = query.get("reveal") === "1";
  try {
    const visitor = viewerSignals(request, clientAddress(context));
    const { page: data, newViewerId } = await sharePage({ visitor, siteToken: readCookie(request, SITE_COOKIE), token, lang, reveal });
    const page = await composeSharePage(data);
    const body = Buffer.from(sharePageHtml(page, { failed }), "utf8");
    if (page.shareable && status === 200 && !failed && !query.has(FRESH_PARAM)) {
      const etag = bodyEtag(body);
      const headers = { "cache-control": sharedCacheControl(), etag, vary: "Cookie", ...cacheKeyHeaders(page.cacheKeys) };
      if (etagMatches(request.headers.get("if-none-match"), etag)) {
        const reply = htmlReply(request.pathname, 304, Buffer.alloc(0), headers);
        reply.headers.delete("content-length");
        reply.body = null;
        return reply;
      }
      return htmlReply(request.pathname, status, body, headers);
    }
    const headers: Record<string, string> = { "cache-control": "private, no-store", vary: "Cookie" };
    if (newViewerId) headers["set-cookie"] = setCookie(VIEWER_COOKIE, newViewerId);
    return htmlReply(request.pathname, status, body, headers);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return notFoundReply(request.pathname, lang);
    throw err;
  }
}

/** A transparent 1×1 GIF: the `<noscript>` beacon's answer. */
const PIXEL = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

/**
 * The view beacon `/{lang}/list/{token}/view` (domains/lists/share-page.server.ts
 * recordSharePageView): POST from the page's script answers 204, GET from
 * its `<noscript>` image a pixel; both `no-store`, with the viewer cookie on
 * a first view. Private and unknown lists: 404. HEAD counts nothing.
 */
export async function viewBeaconReply(request: ApiRequest, context: unknown, token: string | undefined): Promise<ApiReply> {
  await request.discardBody();
  const noStore = (status: number, image = false, extra: Record<string, string> = {}): ApiReply => {
    const headers = new ReplyHeaders({ "cache-control": "no-store", ...extra });
    if (image) {
      headers.set("content-type", "image/gif");
      headers.set("content-length", String(PIXEL.length));
    }
    applySecurityHeaders(headers, request.pathname);
    return { status, headers, body: image && request.method === "GET" ? PIXEL : null };
  };
  const image = request.method === "GET" || request.method === "HEAD";
  // A HEAD (a link checker) shows nobody the page: no view.
  if (request.method === "HEAD") return noStore(200, true);
  try {
    const visitor = viewerSignals(request, clientAddress(context));
    const { newViewerId } = await recordSharePageView({ visitor, siteToken: readCookie(request, SITE_COOKIE), token });
    const cookie: Record<string, string> = newViewerId ? { "set-cookie": setCookie(VIEWER_COOKIE, newViewerId) } : {};
    return image ? noStore(200, true, cookie) : noStore(204, false, cookie);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return noStore(404);
    const { status } = failure(err, request.method, request.pathname);
    return noStore(status);
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
async function toggleReply(request: ApiRequest, context: unknown, lang: Lang, token: string): Promise<ApiReply> {
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
    const back = new URLSearchParams(request.search);
    back.set(FRESH_PARAM, "1");
    const headers = new ReplyHeaders({ location: `${request.pathname}?${back}`, "cache-control": "no-store" });
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
export async function sharePageReply(
  request: ApiRequest,
  context: unknown,
  params: { lang: string | undefined; token: string | undefined }
): Promise<ApiReply> {
  try {
    if (!isLang(params.lang) || !params.token) {
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
    const lang = isLang(params.lang) ? params.lang : "en";
    // The database does not answer: say so, and let no cache keep this page.
    const { status, headers, unavailable } = failure(err, request.method, request.pathname);
    if (unavailable) return htmlReply(request.pathname, status, messagePageHtml(lang, "unavailable"), { ...headers, "cache-control": "no-store" });
    return htmlReply(request.pathname, 500, messagePageHtml(lang, "error"), { "cache-control": "no-store" });
  }
}

const PAGE = new RegExp(`^/(${LANGS.join("|")})/list/([^/]+)$`);
const VIEW = new RegExp(`^/(${LANGS.join("|")})/list/([^/]+)/view$`);

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
  context: { clientAddress: string | null }
): Promise<void> | false {
  const method = req.method ?? "GET";
  if (method !== "GET" && method !== "HEAD" && method !== "POST") return false;
  const view = VIEW.exec(pathname);
  if (view) {
    const request = apiRequestOfNode(req, pathname, search, res);
    return viewBeaconReply(request, context, decodeURIComponent(view[2]!)).then((reply) => sendReply(res, reply));
  }
  const match = PAGE.exec(pathname);
  if (!match) return false;
  const request = apiRequestOfNode(req, pathname, search, res);
  return sharePageReply(request, context, { lang: match[1], token: decodeURIComponent(match[2]!) }).then((reply) => sendReply(res, reply));
}
