// The words of share pages and link previews, German and English. Shared by
// the page (app/pages/share/view.ts), the link-preview tags and the preview
// image's words (app/pages/link-preview.server.ts).
import type { Catalogue, Lang } from "./lang";

const de = {
  locale: "de-DE",
  ogLocale: "de_DE",
  siteName: "Wunschliste",
  byOwner: (name: string) => (name ? `von ${name}` : "Eine Wunschliste"),
  wishes: (n: number) => (n === 1 ? "1 Wunsch" : `${n} Wünsche`),
  previewDescription: (owner: string, n: number) => `${owner ? `Wunschliste von ${owner}` : "Eine Wunschliste"} · ${n === 1 ? "1 Wunsch" : `${n} Wünsche`}`,
  defaultTitle: "Wunschliste",
  ownerAvatar: (name: string) => `Profilbild von ${name}`,
  occasion: "Anlass",
  items: "Wünsche",
  empty: "Auf dieser Liste steht noch nichts.",
  price: "Preis",
  // Items of priority 1 (the highest of 1 to 4): MOST_WANTED_PRIORITY in domains/lists/share-page.server.ts.
  mostWanted: "Ganz oben auf der Liste",
  buyAt: (shop: string) => `Bei ${shop} kaufen`,
  newTab: "öffnet in einem neuen Tab",
  purchased: "Gekauft",
  markPurchased: "Als gekauft markieren",
  unmark: "Markierung aufheben",
  spoilerHidden: "Das ist deine eigene Liste: Was schon gekauft wurde, bleibt verborgen, damit die Geschenke eine Überraschung bleiben.",
  spoilerShow: "Zeigen, was gekauft wurde",
  spoilerRevealed: "Du siehst, was schon gekauft wurde.",
  spoilerHide: "Wieder verbergen",
  languages: "Sprache",
  skipToContent: "Zu den Wünschen springen",
  notFoundTitle: "Liste nicht gefunden",
  notFoundText: "Diese Liste gibt es nicht, oder sie ist nicht öffentlich geteilt.",
  saveFailed: "Das hat nicht geklappt. Bitte versuche es noch einmal.",
  errorTitle: "Etwas ist schiefgelaufen",
  errorText: "Bitte versuche es gleich noch einmal.",
  unavailableTitle: "Vorübergehend nicht erreichbar",
  unavailableText: "Der Dienst ist gerade vorübergehend nicht erreichbar. Bitte lade die Seite in ein paar Sekunden neu.",
};

export type ShareTexts = typeof de;

const en: ShareTexts = {
  locale: "en-US",
  ogLocale: "en_US",
  siteName: "Wishlist",
  byOwner: (name) => (name ? `by ${name}` : "A wishlist"),
  wishes: (n) => (n === 1 ? "1 wish" : `${n} wishes`),
  previewDescription: (owner, n) => `${owner ? `A wishlist by ${owner}` : "A wishlist"} · ${n === 1 ? "1 wish" : `${n} wishes`}`,
  defaultTitle: "Wishlist",
  ownerAvatar: (name) => `Profile picture of ${name}`,
  occasion: "Occasion",
  items: "Wishes",
  empty: "Nothing on this list yet.",
  price: "Price",
  mostWanted: "Most wanted",
  buyAt: (shop) => `Buy at ${shop}`,
  newTab: "opens in a new tab",
  purchased: "Purchased",
  markPurchased: "Mark as purchased",
  unmark: "Unmark",
  spoilerHidden: "This is your own list: what has been bought stays hidden so your gifts remain a surprise.",
  spoilerShow: "Show what was bought",
  spoilerRevealed: "You are seeing what has been bought.",
  spoilerHide: "Hide again",
  languages: "Language",
  skipToContent: "Skip to the wishes",
  notFoundTitle: "List not found",
  notFoundText: "This list does not exist or is not shared publicly.",
  saveFailed: "That did not work. Please try again.",
  errorTitle: "Something went wrong",
  errorText: "Please try again in a moment.",
  unavailableTitle: "Temporarily unavailable",
  unavailableText: "The service is temporarily unavailable. Please reload the page in a few seconds.",
};

export const SHARE_TEXTS: Catalogue<ShareTexts> = { de, en };
export const shareTexts = (lang: Lang): ShareTexts => SHARE_TEXTS[lang];
