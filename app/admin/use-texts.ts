// The admin catalogue in a page component: the language the layout's loader
// chose (app.tsx), its texts and the locale for numbers, dates and money.
import { useRouteLoaderData } from "@remix-run/react";
import { ADMIN_TEXTS, formatLocale, localeHref, type Lang } from "~/i18n/admin";

export function useAdminTexts() {
  const layout = useRouteLoaderData<{ lang: Lang }>("routes/app");
  const lang: Lang = layout?.lang ?? "en";
  const locale = formatLocale(lang);
  return {
    lang,
    t: ADMIN_TEXTS[lang],
    locale,
    /** A calendar day ("2026-11-28") as the locale writes it: "Nov 28, 2026", "28. Nov. 2026". */
    day: (isoDay: string) =>
      new Date(`${isoDay.slice(0, 10)}T00:00:00Z`).toLocaleDateString(locale, { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }),
    href: (to: string) => localeHref(to, lang),
  };
}
