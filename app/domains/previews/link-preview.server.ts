// What a public list's link preview (SPEC 4.4) is made of: the list as
// describePublicList tells it, its items' images and the CDN cache keys. The
// preview's words, tags and document are app/pages/link-preview.server.ts.
import { env } from "~/env.server";
import type { Lang } from "~/lib/lang";
import { describePublicList, publicList } from "~/domains/lists/lists.server";
import { readListItems } from "~/domains/lists/items.sql.server";
import { hostedProduct } from "~/domains/lists/serialize";
import { cacheKeys } from "~/domains/cdn/purge.server";

/** `{site_url}/{lang}/list/{token}` (SPEC 4.3). */
export const shareUrl = (token: string, lang: Lang) => `${env.APP_URL}/${lang}/list/${encodeURIComponent(token)}`;

/** The list a preview shows. */
export interface PreviewSource {
  detail: { id: string; name: string; description: string; owner_username: string; productCount: number };
  imageUrls: (string | null)[];
}

/**
 * `GET /og/list/{token}`'s reads: the list and its items' images, and its CDN cache keys;
 * 404 `not_found` for private and unknown lists; counts no view (crawlers read it, people are sent on).
 */
export async function listPreviewSource(token: string | undefined, lang: Lang): Promise<PreviewSource & { cacheKeys: string[] }> {
  const list = await publicList(token);
  const { list: detail } = await describePublicList(list, { lang }, null);
  const items = await readListItems(list.id);
  return {
    detail,
    imageUrls: items.map((i) => hostedProduct(i, { lang }).imageUrl),
    cacheKeys: cacheKeys(
      list.id,
      items.map((i) => i.product.id),
      null
    ),
  };
}
