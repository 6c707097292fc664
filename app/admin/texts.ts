// Texts of the embedded admin (/app/*), English and German, in one catalogue:
// the pages, the navigation and the local preview's banner. German speaks to
// the merchant with "Sie"; the storefront's catalogues (hosted-pages/i18n.ts)
// speak to shoppers with "du" and share the words (Wunschliste, Shop, merken).
// The language is the Shopify admin's: Shopify adds `locale` to the app's URL
// when the admin loads it; links inside the app carry it on (localeHref).
import { langOf, type Lang } from "~/hosted-pages/i18n";

export type { Lang };

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

const en = {
  nav: {
    home: "Home",
    revenue: "Revenue",
    usage: "Usage",
    keys: "Keys and tokens",
    baskets: "Wishlist drawer",
    alerts: "Alerts",
    plans: "Plans",
    appName: "Wishlist",
    pagesLabel: "Admin pages",
  },
  preview: {
    bannerTitle: "Preview — not connected to a Shopify store",
    bannerText:
      "You are looking at the admin of the demo shop on this local installation, with made-up data. Nothing here reaches Shopify: choosing a plan, switching to Free and the branding badge answer with a note instead.",
    readOnly: "This is the local preview: it is not connected to a Shopify store, so nothing was changed in Shopify.",
  },
  common: {
    failedTitle: "That did not work",
    genericError: "Something went wrong. Please try again.",
  },
  errorPage: {
    offTitle: "Shopify app not configured",
    notFoundTitle: "Page not found",
    notFoundText: "There is nothing at this address in the app.",
    unavailableTitle: "Not available",
    unavailableText: "This page cannot be shown. Open the app again from your Shopify admin.",
    failedTitle: "Something went wrong",
    failedText: "The app could not load this page. Please try again in a moment.",
  },
  plans: {
    title: "Plans",
    trialEndedTitle: "Your trial has ended",
    trialEndedText: "Wishlist buttons stay off on your store until you choose a plan.",
    yourPlan: (plan: string) => `Your plan: ${plan}`,
    subscribed: " (subscribed)",
    trialLeft: (days: number) =>
      `Free trial: ${days} ${plural(days, "day", "days")} left. Choose a plan before it ends to keep the wishlist buttons on.`,
    actionsThisMonth: (used: string, limit: string | null) => `Actions this month: ${used}${limit !== null ? ` of ${limit}` : ""}`,
    current: "Current",
    includedActions: (n: string) => `${n} actions a month included`,
    trialDays: (days: number) => `${days}-day free trial`,
    checkoutWebhooks: " · checkout webhooks",
    monthly: (price: string) => `${price} every 30 days`,
    yearly: (price: string) => `${price} a year (−20%)`,
    choose: "Choose",
    chooseLabel: (name: string) => `Choose ${name}`,
    freeTitle: "Free",
    freeText: (actions: string, trialDays: number) =>
      `${actions} actions a month while the ${trialDays}-day free trial of the app lasts; saves pause at the limit until the next month. No charge. When the trial ends, choose a plan to keep the wishlist buttons on.`,
    testCharges: "Charges on this server are test charges.",
    switchToFree: "Switch to Free",
    switchIntro: (plan: string) => `You are on ${plan}. You can leave it here at any time, without contacting us.`,
    confirmTitle: (plan: string) => `Switch from ${plan} to Free?`,
    confirmEnds: (plan: string) =>
      `Shopify cancels your ${plan} subscription now and credits the unused part of the current billing period. The switch takes effect at once.`,
    confirmActions: (actions: string) =>
      `Free includes ${actions} wishlist actions a month. At ${actions}, saves pause until the next month; there is no overage.`,
    confirmFeatures: "Checkout webhooks, server keys, price-drop and low-stock alerts and reminder e-mails stop; back-in-stock alerts stay. The branding badge is shown again.",
    confirmTrialLeft: (date: string) =>
      `Free is only available during the app's trial, which ends on ${date}. After that the wishlist buttons go off on your store until you choose a paid plan again.`,
    confirmTrialOver:
      "Your app trial has ended, so on Free the wishlist buttons go off on your store at once, until you choose a paid plan again.",
    confirmYes: "Switch to Free",
    confirmKeep: (plan: string) => `Keep ${plan}`,
    switched: "You are on Free now. Shopify no longer charges for a plan of this app.",
    cancelFailed: (reason: string) => `Shopify did not cancel the subscription: ${reason}`,
    noSubscription: "There is no paid plan to leave: this shop is already on Free.",
    invalidInput: "Choose a plan or a badge setting",
    unknownPlan: (name: string) => `There is no plan called ${JSON.stringify(name)}`,
    noConfirmation: "Shopify did not return a confirmation page",
    badgeTitle: "Branding badge",
    badgeShown: "The “Wishlist by Wish” badge under the wishlist button is shown on your store.",
    badgeHidden: "The badge is hidden on your store.",
    badgePaidOnly: "It can be switched off on a paid plan.",
    badgeHide: "Hide the badge",
    badgeShow: "Show the badge",
    badgePlanRequired: "The branding badge can be switched off on paid plans only",
  },
};

const de: typeof en = {
  nav: {
    home: "Start",
    revenue: "Umsatz",
    usage: "Nutzung",
    keys: "Schlüssel und Tokens",
    baskets: "Wunschlisten-Leiste",
    alerts: "Alarme",
    plans: "Tarife",
    appName: "Wunschliste",
    pagesLabel: "Seiten der App",
  },
  preview: {
    bannerTitle: "Vorschau – mit keinem Shopify-Shop verbunden",
    bannerText:
      "Sie sehen den Admin des Demo-Shops dieser lokalen Installation, mit erfundenen Daten. Nichts davon erreicht Shopify: Tarifwahl, Wechsel zu Free und Branding-Badge antworten stattdessen mit einem Hinweis.",
    readOnly: "Das ist die lokale Vorschau: Sie ist mit keinem Shopify-Shop verbunden, in Shopify wurde also nichts geändert.",
  },
  common: {
    failedTitle: "Das hat nicht geklappt",
    genericError: "Etwas ist schiefgegangen. Bitte versuchen Sie es erneut.",
  },
  errorPage: {
    offTitle: "Shopify-App nicht eingerichtet",
    notFoundTitle: "Seite nicht gefunden",
    notFoundText: "Unter dieser Adresse gibt es in der App nichts.",
    unavailableTitle: "Nicht verfügbar",
    unavailableText: "Diese Seite kann nicht angezeigt werden. Öffnen Sie die App erneut aus Ihrem Shopify-Admin.",
    failedTitle: "Etwas ist schiefgegangen",
    failedText: "Die App konnte diese Seite nicht laden. Bitte versuchen Sie es gleich noch einmal.",
  },
  plans: {
    title: "Tarife",
    trialEndedTitle: "Ihr Testzeitraum ist abgelaufen",
    trialEndedText: "Die Wunschlisten-Knöpfe bleiben in Ihrem Shop aus, bis Sie einen Tarif wählen.",
    yourPlan: (plan: string) => `Ihr Tarif: ${plan}`,
    subscribed: " (abonniert)",
    trialLeft: (days: number) =>
      `Kostenloser Test: noch ${days} ${plural(days, "Tag", "Tage")}. Wählen Sie vorher einen Tarif, damit die Wunschlisten-Knöpfe an bleiben.`,
    actionsThisMonth: (used: string, limit: string | null) => `Aktionen in diesem Monat: ${used}${limit !== null ? ` von ${limit}` : ""}`,
    current: "Aktuell",
    includedActions: (n: string) => `${n} Aktionen im Monat inklusive`,
    trialDays: (days: number) => `${days} Tage kostenlos testen`,
    checkoutWebhooks: " · Checkout-Webhooks",
    monthly: (price: string) => `${price} alle 30 Tage`,
    yearly: (price: string) => `${price} im Jahr (−20 %)`,
    choose: "Wählen",
    chooseLabel: (name: string) => `${name} wählen`,
    freeTitle: "Free",
    freeText: (actions: string, trialDays: number) =>
      `${actions} Aktionen im Monat, solange der ${trialDays}-tägige kostenlose Test der App läuft; am Limit pausieren Speichervorgänge bis zum nächsten Monat. Kostenlos. Wählen Sie nach dem Test einen Tarif, damit die Wunschlisten-Knöpfe an bleiben.`,
    testCharges: "Abbuchungen auf diesem Server sind Testabbuchungen.",
    switchToFree: "Zu Free wechseln",
    switchIntro: (plan: string) => `Sie nutzen ${plan}. Sie können den Tarif hier jederzeit verlassen, ohne uns zu kontaktieren.`,
    confirmTitle: (plan: string) => `Von ${plan} zu Free wechseln?`,
    confirmEnds: (plan: string) =>
      `Shopify kündigt Ihr ${plan}-Abo sofort und schreibt Ihnen den ungenutzten Teil des laufenden Abrechnungszeitraums gut. Der Wechsel gilt sofort.`,
    confirmActions: (actions: string) =>
      `Free enthält ${actions} Wunschlisten-Aktionen im Monat. Bei ${actions} pausieren Speichervorgänge bis zum nächsten Monat; Mehrverbrauch gibt es nicht.`,
    confirmFeatures:
      "Checkout-Webhooks, Server-Schlüssel, Preis- und Niedrigbestand-Alarme sowie Erinnerungs-E-Mails enden; Alarme „Wieder verfügbar“ bleiben. Das Branding-Badge wird wieder angezeigt.",
    confirmTrialLeft: (date: string) =>
      `Free gibt es nur während des Testzeitraums der App, der am ${date} endet. Danach sind die Wunschlisten-Knöpfe in Ihrem Shop aus, bis Sie wieder einen bezahlten Tarif wählen.`,
    confirmTrialOver:
      "Ihr Testzeitraum ist abgelaufen: Mit Free sind die Wunschlisten-Knöpfe in Ihrem Shop sofort aus, bis Sie wieder einen bezahlten Tarif wählen.",
    confirmYes: "Zu Free wechseln",
    confirmKeep: (plan: string) => `${plan} behalten`,
    switched: "Sie nutzen jetzt Free. Shopify berechnet für diese App keinen Tarif mehr.",
    cancelFailed: (reason: string) => `Shopify hat das Abo nicht gekündigt: ${reason}`,
    noSubscription: "Es gibt keinen bezahlten Tarif zu verlassen: Dieser Shop nutzt bereits Free.",
    invalidInput: "Wählen Sie einen Tarif oder eine Badge-Einstellung",
    unknownPlan: (name: string) => `Es gibt keinen Tarif namens ${JSON.stringify(name)}`,
    noConfirmation: "Shopify hat keine Bestätigungsseite geliefert",
    badgeTitle: "Branding-Badge",
    badgeShown: "Das Badge „Wishlist by Wish“ unter dem Wunschlisten-Knopf wird in Ihrem Shop angezeigt.",
    badgeHidden: "Das Badge ist in Ihrem Shop ausgeblendet.",
    badgePaidOnly: "In einem bezahlten Tarif können Sie es ausblenden.",
    badgeHide: "Badge ausblenden",
    badgeShow: "Badge anzeigen",
    badgePlanRequired: "Das Branding-Badge lässt sich nur in bezahlten Tarifen ausblenden",
  },
};

export type AdminTexts = typeof en;
export const ADMIN_TEXTS: Record<Lang, AdminTexts> = { en, de };

/**
 * The admin's language: Shopify's `locale` query parameter (the admin user's
 * language, sent when the admin loads the app), else the browser's first
 * Accept-Language, else English.
 */
export function adminLang(request: Request): Lang {
  const url = new URL(request.url);
  const asked = url.searchParams.get("locale") ?? (request.headers.get("accept-language") ?? "").split(",")[0]?.trim();
  return langOf(asked);
}

/** The locale numbers, dates and money are formatted in. */
export const formatLocale = (lang: Lang) => (lang === "de" ? "de-DE" : "en-US");

/** An address inside the app that keeps the admin's language (`?locale=`) for the next request. */
export function localeHref(to: string, lang: Lang): string {
  return `${to}${to.includes("?") ? "&" : "?"}locale=${lang}`;
}
