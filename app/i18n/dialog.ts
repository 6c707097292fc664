// Texts of the hosted dialog pages (/dialog/save, /dialog/link, and what the
// basket drawer /dialog/basket shares with them: sign-in, errors), German and
// English; the drawer's own words are drawer.ts. The language comes from
// the shop's locale (de-DE → de, else en: langOf).
import type { Catalogue, Lang } from "./lang";

export { langOf, type Lang } from "./lang";

const de = {
  loading: "Einen Moment …",
  titleSave: "Auf die Wunschliste",
  noContext: "Dieses Fenster wurde ohne Produkt geöffnet. Schließe es und drücke im Shop noch einmal auf den Merken-Knopf.",
  welcome: "Merke dir dieses Produkt auf einer Wunschliste, die du teilen kannst.",
  guest: "Als Gast fortfahren",
  signIn: "Anmelden",
  signUp: "Konto erstellen",
  email: "E-Mail",
  password: "Passwort",
  passwordHint: "Mindestens 8 Zeichen",
  back: "Zurück",
  chooseList: "Liste wählen",
  newList: "Neue Liste",
  newListName: "Name der neuen Liste",
  create: "Anlegen",
  save: "Speichern",
  saving: "Wird gespeichert …",
  savedTo: (list: string) => `Gespeichert in „${list}“`,
  alreadySaved: (list: string) => `Schon in „${list}“ gemerkt`,
  removedFrom: (list: string) => `Aus „${list}“ entfernt`,
  remove: "Von der Liste entfernen",
  removing: "Wird entfernt …",
  changeList: "Liste ändern",
  moveHere: "In diese Liste verschieben",
  viewMyLists: "Meine Listen ansehen",
  closingSoon: "Dieses Fenster schließt sich gleich von selbst.",
  onShop: (host: string) => `Shop: ${host}`,
  shopRecognises: (host: string) => `${host} erkennt dich auf diesem Gerät wieder, damit die Herzen zeigen, was du gemerkt hast.`,
  notOnThisShop: "Nicht in diesem Shop",
  shopForgets: (host: string) => `${host} erkennt dich nicht mehr wieder. Deine Listen bleiben deine.`,
  stayOnShop: (host: string) => `Auf ${host} angemeldet bleiben`,
  alertOffer: "Sag mir Bescheid, wenn es günstiger oder wieder verfügbar wird",
  alertOfferPending: "Schau in dein Postfach und bestätige die Alarme.",
  close: "Schließen",
  thisProduct: "Dieses Produkt",
  retry: "Erneut versuchen",
  guestNote: "Du bist als Gast unterwegs. Melde dich an, um deine Listen auf allen Geräten zu behalten.",
  signedInAs: (email: string) => `Angemeldet als ${email}`,
  signOut: "Abmelden",
  keepLists: "Anmelden und Listen behalten",
  items: (n: number) => (n === 1 ? "1 Produkt" : `${n} Produkte`),
  titleJoin: "Wunschlisten verbinden",
  joinIntro: (shop: string) =>
    `Melde dich mit deinem Wunschlisten-Konto an: Was du bei ${shop} gemerkt hast, kommt dazu, und ${shop} erkennt dich künftig mit diesem Konto.`,
  joinAs: (email: string) => `Mit ${email} verbinden`,
  otherAccount: "Anderes Konto verwenden",
  joining: "Wird verbunden …",
  joinedTitle: "Verbunden",
  joined: (shop: string, n: number) =>
    `Deine Wunschliste bei ${shop} gehört jetzt zu deinem Konto${
      n > 0 ? ` (${n === 1 ? "1 Produkt" : `${n} Produkte`} übernommen)` : ""
    }. Schließe dieses Fenster, um weiterzumachen.`,
  joinNoContext:
    "Dieser Link ist abgelaufen oder unvollständig. Öffne die Wunschliste im Shop und tippe noch einmal auf „Mit meinem Wunschlisten-Konto verbinden“.",
  // Account basics
  forgotPassword: "Passwort vergessen?",
  errors: {
    link_used: "Diese Wunschliste ist schon mit einem Konto verbunden.",
    account_already_linked: "Dein Konto ist in diesem Shop schon mit einem anderen Kundenkonto verbunden.",
    account_required: "Melde dich mit deiner E-Mail-Adresse an; ein Gastkonto lässt sich nicht verbinden.",
    usage_limit_reached: (until: string) => `Die Wunschliste dieses Shops ist bis ${until} pausiert.`,
    network: "Keine Verbindung. Prüfe dein Internet und versuche es erneut.",
    expired: "Dieses Fenster ist abgelaufen. Schließe es und drücke im Shop noch einmal auf den Merken-Knopf.",
    invalid_wishlist: "In diese Liste kannst du nicht speichern. Wähle eine andere.",
    invalid_credentials: "E-Mail oder Passwort ist falsch.",
    over_request_rate_limit: "Zu viele fehlgeschlagene Anmeldungen. Warte ein paar Minuten und versuche es dann noch einmal.",
    email_exists: "Zu dieser E-Mail gibt es schon ein Konto. Melde dich an.",
    weak_password: "Wähle ein Passwort mit mindestens 8 Zeichen.",
    invalid_email: "Gib eine gültige E-Mail-Adresse ein.",
    too_many_requests: "Heute haben wir schon genug Bestätigungen verschickt. Bitte versuche es morgen noch einmal.",
    missing_name: "Gib der Liste einen Namen.",
    bad_product: "Dieses Produkt kann nicht gespeichert werden: seine Adresse fehlt oder ist ungültig.",
    other: (code: string) => `Etwas ist schiefgegangen (${code}). Bitte versuche es erneut.`,
  },
  // The join page's confirmation (/dialog/link)
  joinConfirmTitle: "Bevor du verbindest",
  joinQuestion: (email: string, host: string) => `Deine Wunschliste mit dem Kundenkonto ${email} bei ${host} verbinden?`,
  joinQuestionUnknown: (name: string) => `Deine Wunschliste mit einem Kundenkonto von ${name} verbinden?`,
  joinStore: "Shop",
  joinCustomer: "Kundenkonto",
  joinCustomerUnknown: (name: string) => `ein Kundenkonto von ${name}`,
  joinAccount: "Dein Konto",
  joinMoves: "Was umzieht",
  joinMovesText: (lists: number, items: number) => `${lists === 1 ? "1 Liste" : `${lists} Listen`} mit ${items === 1 ? "1 Produkt" : `${items} Produkten`}`,
  joinMovesNothing: "Noch nichts gemerkt",
  joinRecognise: (host: string) => `${host} erkennt dich danach mit diesem Konto. Unter „Verbundene Shops“ in „Meine Listen“ kannst du das jederzeit trennen.`,
  joinWarning: (host: string) => `Verbinde nur, wenn du das gerade selbst bei ${host} angestoßen hast. Hat dir jemand diesen Link geschickt, brich ab.`,
  joinConfirm: "Verbinden",
  joinCancel: "Abbrechen",
  joinCancelledTitle: "Nichts verbunden",
  joinCancelled: "Deine Wunschliste wurde mit nichts verbunden. Du kannst dieses Fenster schließen.",
  joinAlready: (host: string) => `Deine Wunschliste ist schon mit deinem Kundenkonto bei ${host} verbunden.`,
};

const en: typeof de = {
  loading: "One moment …",
  titleSave: "Save to wishlist",
  noContext: "This window was opened without a product. Close it and press the save button in the shop again.",
  welcome: "Keep this product on a wishlist you can share.",
  guest: "Continue as guest",
  signIn: "Sign in",
  signUp: "Create account",
  email: "E-mail",
  password: "Password",
  passwordHint: "At least 8 characters",
  back: "Back",
  chooseList: "Choose a list",
  newList: "New list",
  newListName: "Name of the new list",
  create: "Create",
  save: "Save",
  saving: "Saving …",
  savedTo: (list: string) => `Saved to “${list}”`,
  alreadySaved: (list: string) => `Already saved in “${list}”`,
  removedFrom: (list: string) => `Removed from “${list}”`,
  remove: "Remove from list",
  removing: "Removing …",
  changeList: "Change list",
  moveHere: "Move to this list",
  viewMyLists: "View my lists",
  closingSoon: "This window closes by itself in a moment.",
  onShop: (host: string) => `Shop: ${host}`,
  shopRecognises: (host: string) => `${host} will recognise you on this device, so its hearts show what you saved.`,
  notOnThisShop: "Not on this shop",
  shopForgets: (host: string) => `${host} no longer recognises you. Your lists stay yours.`,
  stayOnShop: (host: string) => `Stay signed in on ${host}`,
  alertOffer: "Tell me when it gets cheaper or is back in stock",
  alertOfferPending: "Check your inbox to confirm the alerts.",
  close: "Close",
  thisProduct: "This product",
  retry: "Try again",
  guestNote: "You are browsing as a guest. Sign in to keep your lists on every device.",
  signedInAs: (email: string) => `Signed in as ${email}`,
  signOut: "Sign out",
  keepLists: "Sign in and keep my lists",
  items: (n: number) => (n === 1 ? "1 product" : `${n} products`),
  titleJoin: "Join your wishlists",
  joinIntro: (shop: string) =>
    `Sign in with your wishlist account: what you saved at ${shop} joins it, and ${shop} recognises you by this account from now on.`,
  joinAs: (email: string) => `Join as ${email}`,
  otherAccount: "Use another account",
  joining: "Joining …",
  joinedTitle: "Joined",
  joined: (shop: string, n: number) =>
    `Your wishlist at ${shop} now belongs to your account${n > 0 ? ` (${n === 1 ? "1 product" : `${n} products`} moved)` : ""}. Close this window to carry on.`,
  joinNoContext: "This link has expired or is incomplete. Open the wishlist in the shop and tap “Join with my wishlist account” again.",
  // Account basics
  forgotPassword: "Forgot your password?",
  errors: {
    link_used: "This wishlist is joined with an account already.",
    account_already_linked: "Your account is joined with another customer account of this shop.",
    account_required: "Sign in with your e-mail address; a guest account cannot be joined.",
    usage_limit_reached: (until: string) => `This shop's wishlist is paused until ${until}.`,
    network: "No connection. Check your internet and try again.",
    expired: "This window has expired. Close it and press the save button in the shop again.",
    invalid_wishlist: "You cannot save to this list. Choose another one.",
    invalid_credentials: "E-mail or password is wrong.",
    over_request_rate_limit: "Too many failed sign-ins. Wait a few minutes, then try again.",
    email_exists: "An account with this e-mail exists. Sign in instead.",
    weak_password: "Choose a password with at least 8 characters.",
    invalid_email: "Enter a valid e-mail address.",
    too_many_requests: "We have sent enough confirmations today. Please try again tomorrow.",
    missing_name: "Give the list a name.",
    bad_product: "This product cannot be saved: its address is missing or invalid.",
    other: (code: string) => `Something went wrong (${code}). Please try again.`,
  },
  // The join page's confirmation (/dialog/link)
  joinConfirmTitle: "Before you join",
  joinQuestion: (email: string, host: string) => `Join your wishlist with the customer account ${email} at ${host}?`,
  joinQuestionUnknown: (name: string) => `Join your wishlist with a customer account of ${name}?`,
  joinStore: "Store",
  joinCustomer: "Customer account",
  joinCustomerUnknown: (name: string) => `a customer account of ${name}`,
  joinAccount: "Your account",
  joinMoves: "What moves",
  joinMovesText: (lists: number, items: number) => `${lists === 1 ? "1 list" : `${lists} lists`} with ${items === 1 ? "1 product" : `${items} products`}`,
  joinMovesNothing: "Nothing saved yet",
  joinRecognise: (host: string) => `${host} will then recognise you by this account. You can disconnect it at any time under “Connected shops” on My lists.`,
  joinWarning: (host: string) => `Only join if you just asked for this at ${host} yourself. If someone sent you this link, cancel.`,
  joinConfirm: "Join",
  joinCancel: "Cancel",
  joinCancelledTitle: "Nothing joined",
  joinCancelled: "Your wishlist was not joined with anything. You can close this window.",
  joinAlready: (host: string) => `Your wishlist is joined with your customer account at ${host} already.`,
};

export type Texts = typeof de;
export const DIALOG_TEXTS: Catalogue<Texts> = { de, en };
export const texts = (lang: Lang): Texts => DIALOG_TEXTS[lang];

/** The first day of next month (UTC), when a paused Free plan accepts saves again (SPEC 3). */
export function nextPeriodStart(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/** A readable message for an API failure (`code` from the SPEC error body, or "network"). */
export function errorText(t: Texts, lang: Lang, code: string): string {
  const e = t.errors;
  switch (code) {
    case "usage_limit_reached":
      return e.usage_limit_reached(new Intl.DateTimeFormat(lang, { dateStyle: "long", timeZone: "UTC" }).format(nextPeriodStart()));
    case "network":
      return e.network;
    case "forbidden":
    case "expired":
      return e.expired;
    case "invalid_link":
      return t.joinNoContext;
    case "invalid_wishlist":
    case "invalid_credentials":
    case "over_request_rate_limit":
    case "email_exists":
    case "weak_password":
    case "invalid_email":
    case "missing_name":
    case "link_used":
    case "account_already_linked":
    case "account_required":
    case "too_many_requests":
      return e[code];
    case "missing_url":
    case "invalid_url":
    case "invalid_input":
      return e.bad_product;
    default:
      return e.other(code);
  }
}
