// The words of the account e-mails and pages (password recovery, new
// address, forgotten password), German and English. The one place these
// sentences live; error codes become sentences in `accountErrorText`.
export type AccountLang = "de" | "en";

export const isAccountLang = (value: unknown): value is AccountLang => value === "de" || value === "en";

const de = {
  siteName: "Wunschliste",
  recoverySubject: "Neues Passwort für deine Wunschliste",
  recoveryText: (link: string) =>
    [
      "Hallo,",
      "",
      "jemand (hoffentlich du) möchte das Passwort deines Wunschlisten-Kontos neu setzen. Mit diesem Link geht das, eine Stunde lang und nur einmal:",
      "",
      link,
      "",
      "Wenn du das nicht warst, ignoriere diese E-Mail einfach: Dein Passwort bleibt, wie es ist.",
    ].join("\n"),
  recoveryButton: "Neues Passwort setzen",
  emailChangeSubject: "Bestätige deine neue E-Mail-Adresse",
  emailChangeText: (link: string) =>
    [
      "Hallo,",
      "",
      "dein Wunschlisten-Konto soll künftig diese E-Mail-Adresse verwenden. Bestätige sie mit diesem Link (eine Stunde gültig, nur einmal):",
      "",
      link,
      "",
      "Wenn du das nicht warst, ignoriere diese E-Mail: Es ändert sich nichts.",
    ].join("\n"),
  emailChangeButton: "Adresse bestätigen",
  mailWhy: "Du bekommst diese E-Mail, weil jemand sie auf der Wunschliste angefordert hat.",
  // Pages
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
  recoverySubject: "A new password for your wishlist",
  recoveryText: (link) =>
    [
      "Hello,",
      "",
      "someone (hopefully you) asked to set a new password for your wishlist account. This link does it, for one hour and once:",
      "",
      link,
      "",
      "If that was not you, just ignore this e-mail: your password stays as it is.",
    ].join("\n"),
  recoveryButton: "Set a new password",
  emailChangeSubject: "Confirm your new e-mail address",
  emailChangeText: (link) =>
    [
      "Hello,",
      "",
      "your wishlist account is to use this e-mail address from now on. Confirm it with this link (valid for one hour, once):",
      "",
      link,
      "",
      "If that was not you, ignore this e-mail: nothing changes.",
    ].join("\n"),
  emailChangeButton: "Confirm the address",
  mailWhy: "You get this e-mail because someone asked for it on the wishlist.",
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

export const accountTexts = (lang: AccountLang): Texts => (lang === "de" ? de : en);

export function accountErrorText(lang: AccountLang, code: string | undefined): string {
  const errors = accountTexts(lang).errors;
  return code && Object.hasOwn(errors, code) ? errors[code as keyof Texts["errors"]] : errors.failed;
}
