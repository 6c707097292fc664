// The admin catalogue (app/i18n/admin.ts): German has every text English has,
// of the same kind (a sentence, a function of the same arity, a table), and
// the language is the Shopify admin's `locale`, then the browser's, then English.
import { describe, expect, it } from "vitest";
import { ADMIN_TEXTS, adminLang, localeHref } from "~/i18n/admin";

/** Every leaf as "path: kind", e.g. "plans.trialLeft: function/1". */
function shape(value: unknown, path = ""): string[] {
  if (typeof value === "function") return [`${path}: function/${value.length}`];
  if (typeof value === "string") return [`${path}: string`];
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => shape(v, path ? `${path}.${k}` : k));
  return [`${path}: ${typeof value}`];
}

describe("admin catalogue", () => {
  it("English and German have the same keys, each of the same kind", () => {
    const en = shape(ADMIN_TEXTS.en).sort();
    const de = shape(ADMIN_TEXTS.de).sort();
    expect(en.length).toBeGreaterThan(200);
    expect(de).toEqual(en);
  });

  it("no German text is empty, and the German sentences are not the English ones", () => {
    const leaves = (t: unknown, path = ""): Array<[string, string]> =>
      typeof t === "string" ? [[path, t]] : t && typeof t === "object" ? Object.entries(t).flatMap(([k, v]) => leaves(v, `${path}.${k}`)) : [];
    const en = new Map(leaves(ADMIN_TEXTS.en));
    const de = leaves(ADMIN_TEXTS.de);
    expect(de.filter(([, text]) => text.trim() === "")).toEqual([]);
    // Sentences (several words) are translated; single words like "Status" or "E-Mail" may coincide.
    expect(de.filter(([path, text]) => text.includes(" ") && text === en.get(path)).map(([path]) => path)).toEqual([]);
  });

  it("takes the admin's locale, then Accept-Language, then English", () => {
    const req = (query: string, acceptLanguage?: string) =>
      new Request(`https://wish.example/app${query}`, acceptLanguage ? { headers: { "accept-language": acceptLanguage } } : {});
    expect(adminLang(req("?locale=de"))).toBe("de");
    expect(adminLang(req("?locale=de-DE", "en-US"))).toBe("de");
    expect(adminLang(req("?locale=en", "de-DE,de;q=0.9"))).toBe("en");
    expect(adminLang(req("", "de-AT,de;q=0.9,en;q=0.8"))).toBe("de");
    expect(adminLang(req("", "fr-FR,de;q=0.5"))).toBe("en");
    expect(adminLang(req("?locale=fr", "de-DE"))).toBe("en");
    expect(adminLang(req(""))).toBe("en");
  });

  it("links inside the app keep the language", () => {
    expect(localeHref("/app/plans", "de")).toBe("/app/plans?locale=de");
    expect(localeHref("/app/revenue?from=2026-01-01", "en")).toBe("/app/revenue?from=2026-01-01&locale=en");
  });
});
