// Texts of the admin preview (docs/shopify.md "Preview the admin locally"),
// English and German. The language follows the browser (Accept-Language), as
// Shopify's admin would pass the merchant's.
import { langOf, type Lang } from "~/hosted-pages/i18n";

const en = {
  bannerTitle: "Preview — not connected to a Shopify store",
  bannerText:
    "You are looking at the admin of the demo shop on this local installation, with made-up data. Nothing here reaches Shopify: choosing a plan and the branding badge answer with a note instead.",
  readOnly: "This is the local preview: it is not connected to a Shopify store, so nothing was changed in Shopify.",
};

const de: typeof en = {
  bannerTitle: "Vorschau – mit keinem Shopify-Shop verbunden",
  bannerText:
    "Du siehst den Admin des Demo-Shops dieser lokalen Installation, mit erfundenen Daten. Nichts davon erreicht Shopify: Tarifwahl und Branding-Badge antworten stattdessen mit einem Hinweis.",
  readOnly: "Das ist die lokale Vorschau: Sie ist mit keinem Shopify-Shop verbunden, in Shopify wurde also nichts geändert.",
};

export type PreviewTexts = typeof en;
export const PREVIEW_TEXTS: Record<Lang, PreviewTexts> = { en, de };

/** The language of a request: the first of Accept-Language's that is German or English. */
export function previewLang(request: Request): Lang {
  const first = (request.headers.get("accept-language") ?? "").split(",")[0]?.trim();
  return langOf(first);
}
