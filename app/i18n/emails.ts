// The e-mails' words (app/pages/emails/): price and stock alerts, reminder
// digests, the alert confirmation, and the account links (new password, new
// address). German and English; the English object gives the shape.
import type { Catalogue, Lang } from "./lang";

const en = {
  /** Intl locale of the e-mails' prices. */
  locale: "en-US",
  // Alerts
  confirmSubject: "Please confirm your price and stock alerts",
  confirmLead: "You asked to hear by e-mail when products you saved get cheaper or come back in stock.",
  confirmAsk: "Please confirm this address:",
  confirmButton: "Confirm alerts",
  confirmIgnore: "If this wasn't you, just ignore this e-mail: without a confirmation we send nothing.",
  confirmWhy: "You get this e-mail because this address was entered to receive alerts on the wishlist.",
  priceDropSubject: (title: string, price: string) => `Price drop: ${title} now ${price}`,
  priceDropLead: (title: string, price: string, previous: string) => `${title} is now ${price}, down from ${previous}.`,
  lowest30: (low: string) => `Lowest price in the 30 days before the reduction: ${low}`,
  backInStockSubject: (title: string) => `Back in stock: ${title}`,
  backInStockLead: (title: string) => `${title} is back in stock.`,
  lowStockSubject: (title: string, left: number) => `Only ${left} left: ${title}`,
  lowStockLead: (title: string, left: number) => `Only ${left} of ${title} left in stock.`,
  now: "Now",
  /** A reminder's price: the price standing, no change implied. */
  price: "Price",
  before: "Before",
  low30Label: "Lowest price (30 days)",
  buyNow: "Buy now",
  why: "You get this e-mail because you turned on alerts for your saved products.",
  unsubscribe: "Unsubscribe",
  /** The product title of the admin's preview when the shop has no product in the catalogue yet. */
  previewTitle: "Your product",
  // Reminder digests
  reminderSubject: (count: number, first: string) => (count === 1 ? `Still on your list: ${first}` : `Still on your list: ${count} saved items`),
  reminderLead: "You saved these and haven't bought them yet.",
  reminderMore: (more: number) => `And ${more} more on your list`,
  reminderWhy: "You get this e-mail because you asked to be reminded of saved items you haven't bought.",
  reminderUnsubscribe: "Stop reminders",
  // Account links
  greeting: "Hello,",
  recoverySubject: "A new password for your wishlist",
  recoveryLead: "someone (hopefully you) asked to set a new password for your wishlist account. This link does it, for one hour and once:",
  recoveryIgnore: "If that was not you, just ignore this e-mail: your password stays as it is.",
  recoveryButton: "Set a new password",
  emailChangeSubject: "Confirm your new e-mail address",
  emailChangeLead: "your wishlist account is to use this e-mail address from now on. Confirm it with this link (valid for one hour, once):",
  emailChangeIgnore: "If that was not you, ignore this e-mail: nothing changes.",
  emailChangeButton: "Confirm the address",
  accountWhy: "You get this e-mail because someone asked for it on the wishlist.",
  /** Under a button: for mail programs that show no buttons. */
  buttonFallback: "Or open this link:",
  // A partner's usage of their plan's monthly actions
  usageSubject: (partner: string, plan: string, percent: number) =>
    percent >= 100 ? `${partner}: your ${plan} plan's wishlist actions are used up` : `${partner}: ${percent}% of your ${plan} plan's wishlist actions used`,
  usageGreeting: (partner: string) => `Hello ${partner},`,
  usageLead: (period: string, total: string, limit: string, plan: string, percent: number) =>
    `In ${period} your shop has used ${total} of the ${limit} wishlist actions included in the ${plan} plan (${percent}%).`,
  usagePaused: "Saves are paused until next month unless you upgrade.",
  usageOverage: (perAction: string) => `Further actions are billed at ${perAction} each.`,
  usageUpgrade: "You can upgrade any time to get more actions.",
  usageButton: "Compare plans",
  usageWhy: "You get this e-mail because you are the contact of a partner account on the wishlist service.",
};

export type EmailTexts = typeof en;

const de: EmailTexts = {
  locale: "de-DE",
  confirmSubject: "Bitte bestätige deine Preis- und Verfügbarkeitsalarme",
  confirmLead: "Du möchtest per E-Mail erfahren, wenn gemerkte Produkte günstiger oder wieder verfügbar werden.",
  confirmAsk: "Bitte bestätige diese Adresse:",
  confirmButton: "Alarme bestätigen",
  confirmIgnore: "Wenn du das nicht warst, ignoriere diese E-Mail einfach: ohne Bestätigung senden wir nichts.",
  confirmWhy: "Du erhältst diese E-Mail, weil diese Adresse auf der Wunschliste für Alarme eingetragen wurde.",
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
  reminderSubject: (count, first) => (count === 1 ? `Noch auf deiner Liste: ${first}` : `Noch auf deiner Liste: ${count} gemerkte Produkte`),
  reminderLead: "Diese Produkte hast du dir gemerkt und noch nicht gekauft.",
  reminderMore: (more) => `Und ${more} ${more === 1 ? "weiteres" : "weitere"} auf deiner Liste`,
  reminderWhy: "Du erhältst diese E-Mail, weil du dich an gemerkte, noch nicht gekaufte Produkte erinnern lassen möchtest.",
  reminderUnsubscribe: "Erinnerungen abbestellen",
  greeting: "Hallo,",
  recoverySubject: "Neues Passwort für deine Wunschliste",
  recoveryLead: "jemand (hoffentlich du) möchte das Passwort deines Wunschlisten-Kontos neu setzen. Mit diesem Link geht das, eine Stunde lang und nur einmal:",
  recoveryIgnore: "Wenn du das nicht warst, ignoriere diese E-Mail einfach: Dein Passwort bleibt, wie es ist.",
  recoveryButton: "Neues Passwort setzen",
  emailChangeSubject: "Bestätige deine neue E-Mail-Adresse",
  emailChangeLead: "dein Wunschlisten-Konto soll künftig diese E-Mail-Adresse verwenden. Bestätige sie mit diesem Link (eine Stunde gültig, nur einmal):",
  emailChangeIgnore: "Wenn du das nicht warst, ignoriere diese E-Mail: Es ändert sich nichts.",
  emailChangeButton: "Adresse bestätigen",
  accountWhy: "Du bekommst diese E-Mail, weil jemand sie auf der Wunschliste angefordert hat.",
  buttonFallback: "Oder öffne diesen Link:",
  usageSubject: (partner, plan, percent) =>
    percent >= 100 ? `${partner}: Die Wunschlisten-Aktionen Ihres Tarifs ${plan} sind aufgebraucht` : `${partner}: ${percent} % der Wunschlisten-Aktionen Ihres Tarifs ${plan} genutzt`,
  usageGreeting: (partner) => `Hallo ${partner},`,
  usageLead: (period, total, limit, plan, percent) =>
    `Im Zeitraum ${period} hat Ihr Shop ${total} der ${limit} Wunschlisten-Aktionen des Tarifs ${plan} genutzt (${percent} %).`,
  usagePaused: "Speichern ist bis zum nächsten Monat pausiert, außer Sie wechseln den Tarif.",
  usageOverage: (perAction) => `Weitere Aktionen kosten je ${perAction}.`,
  usageUpgrade: "Sie können jederzeit in einen größeren Tarif wechseln.",
  usageButton: "Tarife vergleichen",
  usageWhy: "Sie erhalten diese E-Mail als Kontakt eines Partnerkontos des Wunschlisten-Dienstes.",
};

export const EMAIL_TEXTS: Catalogue<EmailTexts> = { de, en };
export const emailTexts = (lang: Lang): EmailTexts => EMAIL_TEXTS[lang];
