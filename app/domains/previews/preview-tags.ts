// The Open Graph / Twitter tags of a link preview (SPEC 4.4). No server
// imports: the share page's meta export renders the same list.
export const OG_IMAGE_SIZE = { width: 1200, height: 630 } as const;

export interface LinkPreview {
  title: string;
  description: string;
  /** The share page: og:url and canonical. */
  url: string;
  image: string;
  imageAlt: string;
  locale: string;
  siteName: string;
  /** hreflang alternates of the share page (de, en, x-default). */
  alternates: { hrefLang: string; href: string }[];
}

/** A tag of the document head: `property` for Open Graph, `name` for Twitter. */
export type PreviewTag = { property: string; content: string } | { name: string; content: string };

/** Every preview tag, in document order. */
export function previewTags(p: LinkPreview): PreviewTag[] {
  return [
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: p.siteName },
    { property: "og:locale", content: p.locale },
    { property: "og:title", content: p.title },
    { property: "og:description", content: p.description },
    { property: "og:url", content: p.url },
    { property: "og:image", content: p.image },
    { property: "og:image:type", content: "image/png" },
    { property: "og:image:width", content: String(OG_IMAGE_SIZE.width) },
    { property: "og:image:height", content: String(OG_IMAGE_SIZE.height) },
    { property: "og:image:alt", content: p.imageAlt },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: p.title },
    { name: "twitter:description", content: p.description },
    { name: "twitter:image", content: p.image },
    { name: "twitter:image:alt", content: p.imageAlt },
  ];
}

