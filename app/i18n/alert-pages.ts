// The alert links' pages (confirm, unsubscribe, stop reminders, the Buy-now
// link's page), German and English. The e-mails' words are in emails.ts.
import type { Catalogue, Lang } from "./lang";

export interface AlertTexts {
  confirmTitle: string;
  confirmIntro: string;
  confirmButton: string;
  confirmedTitle: string;
  confirmedText: string;
  unsubscribeTitle: string;
  unsubscribeIntro: string;
  unsubscribeButton: string;
  unsubscribedTitle: string;
  unsubscribedText: string;
  invalidTitle: string;
  invalidText: string;
  // The reminders' own unsubscribe page
  remindersOffTitle: string;
  remindersOffIntro: string;
  remindersOffButton: string;
  remindersOffDoneTitle: string;
  remindersOffDoneText: string;
  /** The Buy-now link of an alert e-mail that names no alert (forged, or the alert was deleted). */
  buyLinkInvalidText: string;
  /** The Buy-now link of a product page no installed shop speaks for: we show the address instead of redirecting. */
  leaveTitle: string;
  leaveText: (host: string) => string;
  leaveLinkLabel: string;
}

const de: AlertTexts = {
  confirmTitle: "Alarme bestätigen",
  confirmIntro: "Bestätige, dass wir dir Preis- und Verfügbarkeitsalarme zu deinen gemerkten Produkten senden dürfen.",
  confirmButton: "Bestätigen",
  confirmedTitle: "Alarme sind an",
  confirmedText: "Danke! Wir melden uns, wenn ein gemerktes Produkt günstiger oder wieder verfügbar wird.",
  unsubscribeTitle: "Alarme abbestellen",
  unsubscribeIntro: "Möchtest du keine Preis- und Verfügbarkeitsalarme mehr erhalten?",
  unsubscribeButton: "Abmelden",
  unsubscribedTitle: "Abgemeldet",
  unsubscribedText: "Du erhältst keine Alarme mehr. Deine Adresse haben wir gelöscht.",
  invalidTitle: "Link ungültig",
  invalidText: "Dieser Link ist ungültig oder gehört zu einer anderen Adresse.",
  remindersOffTitle: "Erinnerungen abbestellen",
  remindersOffIntro: "Möchtest du keine Erinnerungen an deine gemerkten Produkte mehr erhalten? Preis- und Verfügbarkeitsalarme bleiben, wie sie sind.",
  remindersOffButton: "Erinnerungen abbestellen",
  remindersOffDoneTitle: "Erinnerungen abbestellt",
  remindersOffDoneText: "Du erhältst keine Erinnerungen mehr. Preis- und Verfügbarkeitsalarme bleiben an, falls du sie eingeschaltet hast.",
  buyLinkInvalidText: "Dieser Link ist ungültig oder nicht mehr gültig. Das Produkt findest du im Shop oder in deinen Listen.",
  leaveTitle: "Du verlässt diese Seite",
  leaveText: (host) =>
    `Dieser Link führt zu ${host}, einer Seite, die wir nicht betreiben und nicht prüfen. Sieh dir die Adresse an, bevor du weitergehst, und gib dort nur Daten ein, wenn du dem Shop vertraust.`,
  leaveLinkLabel: "Weiter zu:",
};

const en: AlertTexts = {
  confirmTitle: "Confirm alerts",
  confirmIntro: "Confirm that we may send you price and stock alerts about your saved products.",
  confirmButton: "Confirm",
  confirmedTitle: "Alerts are on",
  confirmedText: "Thank you! We'll let you know when a saved product gets cheaper or comes back in stock.",
  unsubscribeTitle: "Unsubscribe from alerts",
  unsubscribeIntro: "Don't want price and stock alerts any more?",
  unsubscribeButton: "Unsubscribe",
  unsubscribedTitle: "Unsubscribed",
  unsubscribedText: "You won't get alerts any more. We deleted your address.",
  invalidTitle: "Invalid link",
  invalidText: "This link is invalid or belongs to another address.",
  remindersOffTitle: "Stop reminders",
  remindersOffIntro: "Don't want reminders of your saved items any more? Price and stock alerts stay as they are.",
  remindersOffButton: "Stop reminders",
  remindersOffDoneTitle: "Reminders stopped",
  remindersOffDoneText: "You won't get reminders any more. Price and stock alerts stay on if you turned them on.",
  buyLinkInvalidText: "This link is invalid or no longer valid. You can find the product in the shop or on your lists.",
  leaveTitle: "You are leaving this site",
  leaveText: (host) =>
    `This link leads to ${host}, a site we don't run or check. Look at the address before you go on, and only enter your details there if you trust the shop.`,
  leaveLinkLabel: "Continue to:",
};

export const ALERT_PAGE_TEXTS: Catalogue<AlertTexts> = { de, en };
export const alertTexts = (lang: Lang): AlertTexts => ALERT_PAGE_TEXTS[lang];
