// The alert e-mails' and pages' copy, German and English.
export type AlertLang = "de" | "en";

export const isAlertLang = (value: unknown): value is AlertLang => value === "de" || value === "en";

export interface AlertTexts {
  confirmSubject: string;
  confirmText: (link: string) => string;
  priceDropSubject: (title: string, price: string) => string;
  priceDropLead: (title: string, price: string, previous: string) => string;
  lowest30: (low: string) => string;
  backInStockSubject: (title: string) => string;
  backInStockLead: (title: string) => string;
  lowStockSubject: (title: string, left: number) => string;
  lowStockLead: (title: string, left: number) => string;
  now: string;
  /** A reminder's price: the price standing, no change implied. */
  price: string;
  before: string;
  low30Label: string;
  buyNow: string;
  why: string;
  unsubscribe: string;
  /** The product title of the admin's preview when the shop has no product in the catalogue yet. */
  previewTitle: string;
  // Pages
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
  // Reminder digests (saved items not yet bought) and their own unsubscribe page
  reminderSubject: (count: number, firstTitle: string) => string;
  reminderLead: string;
  reminderMore: (more: number) => string;
  reminderWhy: string;
  reminderUnsubscribe: string;
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
  confirmSubject: "Bitte bestätige deine Preis- und Verfügbarkeitsalarme",
  confirmText: (link) =>
    `Du möchtest per E-Mail erfahren, wenn gemerkte Produkte günstiger oder wieder verfügbar werden.\n\nBitte bestätige diese Adresse:\n${link}\n\nWenn du das nicht warst, ignoriere diese E-Mail einfach: ohne Bestätigung senden wir nichts.`,
  priceDropSubject: (title, price) => `Preissenkung: ${title} jetzt ${price}`,
  priceDropLead: (title, price, previous) => `${title} kostet jetzt ${price} statt ${previous}.`,
  lowest30: (low) => `Niedrigster Preis der letzten 30 Tage vor der Senkung: ${low}`,
  backInStockSubject: (title) => `Wieder verfügbar: ${title}`,
  backInStockLead: (title) => `${title} ist wieder verfügbar.`,
  lowStockSubject: (title, left) => `Nur noch ${left} verfügbar: ${title}`,
  lowStockLead: (title, left) => `Von ${title} sind nur noch ${left} Stück verfügbar.`,
  now: "Jetzt",
  price: "Preis",
  before: "Vorher",
  low30Label: "Niedrigster Preis (30 Tage)",
  buyNow: "Jetzt kaufen",
  why: "Du erhältst diese E-Mail, weil du Alarme für deine gemerkten Produkte eingeschaltet hast.",
  unsubscribe: "Abmelden",
  previewTitle: "Dein Produkt",
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
  reminderSubject: (count, first) => (count === 1 ? `Noch auf deiner Liste: ${first}` : `Noch auf deiner Liste: ${count} gemerkte Produkte`),
  reminderLead: "Diese Produkte hast du dir gemerkt und noch nicht gekauft.",
  reminderMore: (more) => `Und ${more} ${more === 1 ? "weiteres" : "weitere"} auf deiner Liste`,
  reminderWhy: "Du erhältst diese E-Mail, weil du dich an gemerkte, noch nicht gekaufte Produkte erinnern lassen möchtest.",
  reminderUnsubscribe: "Erinnerungen abbestellen",
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
  confirmSubject: "Please confirm your price and stock alerts",
  confirmText: (link) =>
    `You asked to hear by e-mail when products you saved get cheaper or come back in stock.\n\nPlease confirm this address:\n${link}\n\nIf this wasn't you, just ignore this e-mail: without a confirmation we send nothing.`,
  priceDropSubject: (title, price) => `Price drop: ${title} now ${price}`,
  priceDropLead: (title, price, previous) => `${title} is now ${price}, down from ${previous}.`,
  lowest30: (low) => `Lowest price in the 30 days before the reduction: ${low}`,
  backInStockSubject: (title) => `Back in stock: ${title}`,
  backInStockLead: (title) => `${title} is back in stock.`,
  lowStockSubject: (title, left) => `Only ${left} left: ${title}`,
  lowStockLead: (title, left) => `Only ${left} of ${title} left in stock.`,
  now: "Now",
  price: "Price",
  before: "Before",
  low30Label: "Lowest price (30 days)",
  buyNow: "Buy now",
  why: "You get this e-mail because you turned on alerts for your saved products.",
  unsubscribe: "Unsubscribe",
  previewTitle: "Your product",
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
  reminderSubject: (count, first) => (count === 1 ? `Still on your list: ${first}` : `Still on your list: ${count} saved items`),
  reminderLead: "You saved these and haven't bought them yet.",
  reminderMore: (more) => `And ${more} more on your list`,
  reminderWhy: "You get this e-mail because you asked to be reminded of saved items you haven't bought.",
  reminderUnsubscribe: "Stop reminders",
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

export const alertTexts = (lang: AlertLang): AlertTexts => (lang === "de" ? de : en);
