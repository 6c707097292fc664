import { z } from "zod";
import { endpoint, REPLICA_READS, route } from "~/api/endpoint.server";
import { listLinkPreview, previewDocument } from "~/domains/previews/link-preview.server";
import { tokenParams } from "~/domains/lists/schemas";
import { PREVIEW_REDIRECT_SCRIPT } from "~/lib/http/security-headers";

// `lang` de or en (SPEC 4.4); absent means en, anything else is 400 invalid_input.
const query = z.object({ lang: z.enum(["de", "en"]).default("en") });

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "The link preview (Open Graph and Twitter tags) of a public list; people are sent on to the share page",
      params: tokenParams,
      query,
      produces: "text/html",
      errors: { missing_token: 400 },
    },
    async ({ params, query }) => {
      const preview = await listLinkPreview(params.token, query.lang);
      return new Response(previewDocument(preview, PREVIEW_REDIRECT_SCRIPT), {
        headers: { "content-type": "text/html; charset=utf-8", "cache-control": "public, max-age=300" },
      });
    },
    REPLICA_READS,
  ),
});
export const action = loader;
