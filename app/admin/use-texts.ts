// The admin catalogue in a page component: the language the layout's loader
// chose (app.tsx), its texts and the locale for numbers, dates and money.
import { useRouteLoaderData } from "@remix-run/react";
import { ADMIN_TEXTS, formatLocale, localeHref, type Lang } from "./texts";

export function useAdminTexts() {
  const layout = useRouteLoaderData<{ lang: Lang }>("routes/app");
  const lang: Lang = layout?.lang ?? "en";
  return {
    lang,
    t: ADMIN_TEXTS[lang],
    locale: formatLocale(lang),
    href: (to: string) => localeHref(to, lang),
  };
}
