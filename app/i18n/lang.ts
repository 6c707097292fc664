// The languages (defined in app/lib/lang.ts, below the domains, which store and pass a language too),
// and the shape every catalogue of app/i18n/ has: one object per language, the same keys in each.
import type { Lang } from "~/lib/lang";

export { DEFAULT_LANG, LANGS, isLang, langOf, localeOf, type Lang } from "~/lib/lang";

/** A catalogue: one text object per language. A language without its object, or an object without a key, is a type error. */
export type Catalogue<T> = Readonly<Record<Lang, T>>;
