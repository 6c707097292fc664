import { z } from "zod";
import { endpoint, REPLICA_READS, route } from "~/api/endpoint.server";
import { listLinkPreview, previewDocument } from "~/pages/link-preview.server";
import { tokenParams } from "~/domains/lists/schemas";
import { PREVIEW_REDIRECT_SCRIPT } from "~/lib/http/security-headers";
import { bodyEtag, cacheKeyHeaders, etagMatches, sharedCacheControl } from "~/http/shared-cache.server";

// `lang` de or en (SPEC 4.4); absent means en, anything else is 400 invalid_input.
const query = z.object({ lang: z.enum(["de", "en"]).default("en") });

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "The link preview (Open Graph and Twitter tags) of a public list; people are sent on to the share page",
      description: "Cacheable by shared caches (s-maxage, stale-while-revalidate); answers 304 without a body when `If-None-Match` matches the document's ETag.",
      params: tokenParams,
      query,
      produces: "text/html",
      errors: { missing_token: 400 },
    },
    async ({ params, query, request }) => {
      const { preview, cacheKeys } = await listLinkPreview(params.token, query.lang);
      const body = new TextEncoder().encode(previewDocument(preview, PREVIEW_REDIRECT_SCRIPT));
      const etag = bodyEtag(body);
      const headers = { "content-type": "text/html; charset=utf-8", "cache-control": sharedCacheControl(), etag, ...cacheKeyHeaders(cacheKeys) };
      if (etagMatches(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
      return new Response(request.method === "HEAD" ? null : body, { headers: { ...headers, "content-length": String(body.length) } });
    },
    REPLICA_READS,
  ),
});
export const action = loader;
