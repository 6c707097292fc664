// The languages the service speaks, in one place. Domains store and pass a
// language (a shopper's consent, a link's page); the catalogues of app/i18n/
// hold the words. A third language is one more entry here and one more object
// in each catalogue (a missing one is a type error there).
export const LANGS = ["de", "en"] as const;
export type Lang = (typeof LANGS)[number];

/** The Intl locale each language writes numbers, dates and money in. */
const LOCALES: Readonly<Record<Lang, string>> = { de: "de-DE", en: "en-US" };
export const localeOf = (lang: Lang): string => LOCALES[lang];

/** The language when nothing says otherwise. */
export const DEFAULT_LANG: Lang = "en";

export const isLang = (value: unknown): value is Lang => typeof value === "string" && (LANGS as readonly string[]).includes(value);

/** A locale or Accept-Language value's language (de-DE → de), else English. */
export function langOf(locale: string | null | undefined): Lang {
  const primary = /^\s*([a-z]{2,3})\b/i.exec(locale ?? "")?.[1]?.toLowerCase();
  return isLang(primary) ? primary : DEFAULT_LANG;
}
