// The words of the account pages (forgotten password, new password, new
// address), German and English; error codes become sentences in
// `accountErrorText`. The account e-mails' words are in emails.ts.
import type { Catalogue, Lang } from "./lang";

const de = {
  siteName: "Wunschliste",
  forgotTitle: "Passwort vergessen?",
  forgotIntro: "Gib die E-Mail-Adresse deines Kontos ein. Wir schicken dir einen Link, mit dem du ein neues Passwort setzen kannst.",
  email: "E-Mail-Adresse",
  sendLink: "Link schicken",
  forgotSent: "Wenn es ein Konto mit dieser Adresse gibt, ist der Link jetzt unterwegs. Er gilt eine Stunde. Schau auch im Spam-Ordner nach.",
  backToLists: "Zu meinen Listen",
  resetTitle: "Neues Passwort setzen",
  resetIntro: "Wähle ein neues Passwort. Danach bist du auf allen anderen Geräten abgemeldet.",
  newPassword: "Neues Passwort",
  passwordHint: "Mindestens 8 Zeichen.",
  savePassword: "Passwort speichern",
  resetDone: "Dein neues Passwort gilt. Alle anderen Anmeldungen sind beendet.",
  confirmTitle: "Neue E-Mail-Adresse bestätigen",
  confirmButton: "Adresse bestätigen",
  confirmDone: (email: string) => `Geschafft: Dein Konto verwendet jetzt ${email}.`,
  checking: "Einen Moment …",
  needsScript: "Diese Seite braucht JavaScript, damit der Link aus deiner E-Mail nicht an uns übertragen wird. Bitte schalte es ein.",
  errors: {
    invalid_email: "Bitte gib eine gültige E-Mail-Adresse ein.",
    otp_expired: "Dieser Link ist abgelaufen oder wurde schon benutzt. Fordere einen neuen an.",
    weak_password: "Das Passwort muss mindestens 8 Zeichen lang sein.",
    email_exists: "Diese Adresse gehört inzwischen zu einem anderen Konto.",
    unauthorized: "Die Sitzung ist abgelaufen. Öffne den Link noch einmal oder fordere einen neuen an.",
    too_many_requests: "Heute haben wir schon genug E-Mails an diese Adresse geschickt. Bitte versuche es morgen noch einmal.",
    failed: "Das hat nicht geklappt. Bitte versuche es noch einmal.",
  },
};

type Texts = typeof de;

const en: Texts = {
  siteName: "Wishlist",
  forgotTitle: "Forgot your password?",
  forgotIntro: "Enter your account's e-mail address. We'll send you a link to set a new password.",
  email: "E-mail address",
  sendLink: "Send the link",
  forgotSent: "If there is an account with this address, the link is on its way. It is valid for one hour. Check your spam folder too.",
  backToLists: "To my lists",
  resetTitle: "Set a new password",
  resetIntro: "Choose a new password. You will be signed out on every other device.",
  newPassword: "New password",
  passwordHint: "At least 8 characters.",
  savePassword: "Save the password",
  resetDone: "Your new password is set. Every other sign-in has ended.",
  confirmTitle: "Confirm your new e-mail address",
  confirmButton: "Confirm the address",
  confirmDone: (email) => `Done: your account now uses ${email}.`,
  checking: "One moment …",
  needsScript: "This page needs JavaScript, so that the link from your e-mail is never sent to us. Please turn it on.",
  errors: {
    invalid_email: "Please enter a valid e-mail address.",
    otp_expired: "This link has expired or was used already. Ask for a new one.",
    weak_password: "The password must be at least 8 characters long.",
    email_exists: "This address belongs to another account by now.",
    unauthorized: "The session has ended. Open the link again or ask for a new one.",
    too_many_requests: "We have sent enough e-mails to this address today. Please try again tomorrow.",
    failed: "That did not work. Please try again.",
  },
};

export const ACCOUNT_TEXTS: Catalogue<Texts> = { de, en };
export const accountTexts = (lang: Lang): Texts => ACCOUNT_TEXTS[lang];

export function accountErrorText(lang: Lang, code: string | undefined): string {
  const errors = accountTexts(lang).errors;
  return code && Object.hasOwn(errors, code) ? errors[code as keyof Texts["errors"]] : errors.failed;
}
