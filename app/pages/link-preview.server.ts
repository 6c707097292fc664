// The link preview of a public list (SPEC 4.4): its Open Graph / Twitter tags,
// identical on `GET /og/list/{token}` and on the share page itself, so a link
// previews the same whichever of the two was shared; and the preview document
// `GET /og/list/{token}` answers with.
import { env } from "~/env.server";
import { html, rawHtml } from "~/lib/html";
import { LANGS, type Lang } from "~/i18n/lang";
import { shareTexts } from "~/i18n/share";
import { cardFile, listCard } from "~/domains/previews/og-image.server";
import { previewTags, type LinkPreview } from "~/domains/previews/preview-tags";
import { listPreviewSource, shareUrl, type PreviewSource } from "~/domains/previews/link-preview.server";

export type { LinkPreview };

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text);

/** The preview of a list as described by describePublicList, with the image URLs of its items. */
export async function linkPreview({ detail, imageUrls }: PreviewSource, lang: Lang): Promise<LinkPreview> {
  const t = shareTexts(lang);
  const card = listCard({
    title: detail.name || t.defaultTitle,
    subtitle: t.byOwner(detail.owner_username),
    caption: t.wishes(detail.productCount),
    imageUrls,
  });
  const summary = t.previewDescription(detail.owner_username, detail.productCount);
  return {
    title: detail.name || t.defaultTitle,
    description: clip(detail.description ? `${summary}. ${detail.description}` : summary, 200),
    url: shareUrl(detail.id, lang),
    image: `${env.APP_URL}/api/v1/og/image/${await cardFile(card)}`,
    imageAlt: `${detail.name || t.defaultTitle} – ${card.subtitle} – ${card.caption}`,
    locale: t.ogLocale,
    siteName: t.siteName,
    alternates: [...LANGS.map((l) => ({ hrefLang: l, href: shareUrl(detail.id, l) })), { hrefLang: "x-default", href: shareUrl(detail.id, "en") }],
  };
}

/**
 * `GET /og/list/{token}`: the preview and its CDN cache keys; 404 `not_found`
 * for private and unknown lists; counts no view (crawlers read it, people are sent on).
 */
export async function listLinkPreview(token: string | undefined, lang: Lang): Promise<{ preview: LinkPreview; cacheKeys: string[] }> {
  const { cacheKeys, ...source } = await listPreviewSource(token, lang);
  return { preview: await linkPreview(source, lang), cacheKeys };
}

/** The preview's tags as markup (the preview document and the share page's head). */
export const previewMeta = (p: LinkPreview) =>
  previewTags(p).map((tag) =>
    "property" in tag ? html`<meta property="${tag.property}" content="${tag.content}">` : html`<meta name="${tag.name}" content="${tag.content}">`
  );

/**
 * The preview document: tags for crawlers, and people are sent to the share
 * page at once (meta refresh, plus the one fixed inline script the CSP of
 * this path allows by hash: it reads the canonical link, so it never varies).
 */
export function previewDocument(p: LinkPreview, redirectScript: string): string {
  const tags = previewMeta(p).map((tag, i) => (i === 0 ? tag : html`\n${tag}`));
  const lang = p.locale.slice(0, 2);
  return html`<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<title>${p.title}</title>
<meta name="description" content="${p.description}">
<link rel="canonical" href="${p.url}">
${p.alternates.map((a, i) => html`${i > 0 ? "\n" : ""}<link rel="alternate" hreflang="${a.hrefLang}" href="${a.href}">`)}
${tags}
<meta http-equiv="refresh" content="0; url=${p.url}">
<script>${rawHtml(redirectScript)}</script>
</head>
<body>
<main><p><a href="${p.url}">${p.title}</a></p></main>
</body>
</html>
`.toString();
}
