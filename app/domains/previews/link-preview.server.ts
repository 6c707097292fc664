// The Open Graph / Twitter tags of a public list (SPEC 4.4), identical on
// `GET /og/list/{token}` and on the share page itself, so a link previews the
// same whichever of the two was shared.
import { env } from "~/env.server";
import { describePublicList, publicList } from "~/domains/lists/lists.server";
import { readListItems } from "~/domains/lists/items.sql.server";
import { hostedProduct } from "~/domains/lists/serialize";
import { shareTexts, type ShareLang } from "~/domains/lists/share-texts";
import { cardFile, listCard } from "./og-image.server";
import { previewTags, type LinkPreview } from "./preview-tags";
import { cacheKeys } from "~/domains/cdn/purge.server";

export { previewTags, type LinkPreview };


/** `{site_url}/{lang}/list/{token}` (SPEC 4.3). */
export const shareUrl = (token: string, lang: ShareLang) => `${env.APP_URL}/${lang}/list/${encodeURIComponent(token)}`;

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text);

/** The preview of a list as described by describePublicList, with the image URLs of its items. */
export async function linkPreview(
  detail: { id: string; name: string; description: string; owner_username: string; productCount: number },
  imageUrls: (string | null)[],
  lang: ShareLang,
): Promise<LinkPreview> {
  const t = shareTexts(lang);
  const card = listCard({ name: detail.name, ownerName: detail.owner_username, itemCount: detail.productCount, imageUrls, lang });
  const summary = t.previewDescription(detail.owner_username, detail.productCount);
  return {
    title: detail.name || t.defaultTitle,
    description: clip(detail.description ? `${summary}. ${detail.description}` : summary, 200),
    url: shareUrl(detail.id, lang),
    image: `${env.APP_URL}/api/v1/og/image/${await cardFile(card)}`,
    imageAlt: `${detail.name || t.defaultTitle} – ${card.subtitle} – ${card.caption}`,
    locale: t.ogLocale,
    siteName: t.siteName,
    alternates: [
      { hrefLang: "de", href: shareUrl(detail.id, "de") },
      { hrefLang: "en", href: shareUrl(detail.id, "en") },
      { hrefLang: "x-default", href: shareUrl(detail.id, "en") },
    ],
  };
}

/**
 * `GET /og/list/{token}`: the preview and its CDN cache keys; 404 `not_found`
 * for private and unknown lists; counts no view (crawlers read it, people are sent on).
 */
export async function listLinkPreview(token: string | undefined, lang: ShareLang): Promise<{ preview: LinkPreview; cacheKeys: string[] }> {
  const list = await publicList(token);
  const { list: detail } = await describePublicList(list, { lang }, null);
  const items = await readListItems(list.id);
  const preview = await linkPreview(detail, items.map((i) => hostedProduct(i, { lang }).imageUrl), lang);
  return { preview, cacheKeys: cacheKeys(list.id, items.map((i) => i.product.id), null) };
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/**
 * The preview document: tags for crawlers, and people are sent to the share
 * page at once (meta refresh, plus the one fixed inline script the CSP of
 * this path allows by hash: it reads the canonical link, so it never varies).
 */
export function previewDocument(p: LinkPreview, redirectScript: string): string {
  const attr = escapeHtml;
  const tags = previewTags(p)
    .map((tag) => ("property" in tag ? `<meta property="${attr(tag.property)}" content="${attr(tag.content)}">` : `<meta name="${attr(tag.name)}" content="${attr(tag.content)}">`))
    .join("\n");
  const lang = p.locale.slice(0, 2);
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<title>${escapeHtml(p.title)}</title>
<meta name="description" content="${attr(p.description)}">
<link rel="canonical" href="${attr(p.url)}">
${p.alternates.map((a) => `<link rel="alternate" hreflang="${a.hrefLang}" href="${attr(a.href)}">`).join("\n")}
${tags}
<meta http-equiv="refresh" content="0; url=${attr(p.url)}">
<script>${redirectScript}</script>
</head>
<body>
<main><p><a href="${attr(p.url)}">${escapeHtml(p.title)}</a></p></main>
</body>
</html>
`;
}
