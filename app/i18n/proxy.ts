// The words of the wishlist page on the shop's own domain (`/apps/wishlist`,
// through Shopify's app proxy: app/pages/proxy-wishlist-page.ts), German and English.
import type { Catalogue } from "./lang";

const en = {
  title: "Wishlist",
  guestIntro: "Sign in to see your wishlist on every device.",
  signIn: "Sign in",
  empty: "Nothing saved yet. Tap the heart on a product to collect it here.",
  addToCart: "Add to cart",
  view: "View",
  remove: "Remove",
  share: "Share list",
  shareLink: "Link to share",
  added: "Added to your cart.",
  removed: "Removed.",
  copied: "Link copied.",
  failed: "That did not work. Please try again.",
  items: (n: number) => (n === 1 ? "1 item" : `${n} items`),
  joinTitle: "One wishlist for every shop",
  joinIntro: "Do you save products on other shops with a wishlist account too? Sign in once and keep everything in one place.",
  join: "Join with my wishlist account",
  popupBlocked: "The window was blocked. Allow pop-ups for this page and try again.",
};

export type ProxyTexts = typeof en;

const de: ProxyTexts = {
  title: "Wunschliste",
  guestIntro: "Melde dich an, um deine Wunschliste auf jedem Gerät zu sehen.",
  signIn: "Anmelden",
  empty: "Noch nichts gespeichert. Tippe auf das Herz bei einem Produkt, um es hier zu sammeln.",
  addToCart: "In den Warenkorb",
  view: "Ansehen",
  remove: "Entfernen",
  share: "Liste teilen",
  shareLink: "Link zum Teilen",
  added: "Zum Warenkorb hinzugefügt.",
  removed: "Entfernt.",
  copied: "Link kopiert.",
  failed: "Das hat nicht geklappt. Bitte versuche es noch einmal.",
  items: (n: number) => (n === 1 ? "1 Artikel" : `${n} Artikel`),
  joinTitle: "Eine Wunschliste für alle Shops",
  joinIntro: "Du merkst dir auch in anderen Shops Produkte mit einem Wunschlisten-Konto? Melde dich einmal an, dann liegt alles an einem Ort.",
  join: "Mit meinem Wunschlisten-Konto verbinden",
  popupBlocked: "Das Fenster wurde blockiert. Erlaube Pop-ups für diese Seite und versuche es noch einmal.",
};

export const PROXY_TEXTS: Catalogue<ProxyTexts> = { de, en };
