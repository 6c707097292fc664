// Every e-mail template (app/pages/emails/) in German and English: what the
// text and HTML parts say, that hostile values stay text, and how the HTML
// looks in a browser at 375 and 1280 px (screenshots in tests/screenshots/emails/,
// no horizontal overflow). Re-run it after any change to a template.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchBrowser } from "../support/browser.ts";
import { renderMail, type EmailModel } from "~/pages/emails";
import { LANGS, type Lang } from "~/i18n/lang";

const out = path.resolve(import.meta.dirname, "../screenshots/emails");
const picture = (hue: number) =>
  `data:image/svg+xml;base64,${Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="480"><rect width="480" height="480" fill="hsl(${hue},45%,82%)"/><circle cx="240" cy="220" r="110" fill="hsl(${hue},45%,62%)"/></svg>`
  ).toString("base64")}`;
const unsubscribeUrl = "https://wish.example/alerts/unsubscribe?token=t0k3n&lang=en";

const models = (lang: Lang): Record<string, EmailModel> => ({
  "price-drop": {
    template: "alert",
    lang,
    kind: "price_drop",
    title: "Oak Lamp",
    imageUrl: picture(30),
    price: { minor: 2500, currency: "EUR" },
    previous: { minor: 3000, currency: "EUR" },
    lowest30Days: { minor: 2800, currency: "EUR" },
    quantity: null,
    buyUrl: "https://wish.example/alerts/buy?token=k&lang=en",
    unsubscribeUrl,
  },
  "back-in-stock": {
    template: "alert",
    lang,
    kind: "back_in_stock",
    title: "Wool Scarf, extra long, in forest green with a very long product name that wraps",
    imageUrl: picture(140),
    price: { minor: 4990, currency: "EUR" },
    previous: { minor: null, currency: "EUR" },
    lowest30Days: { minor: null, currency: "EUR" },
    quantity: null,
    buyUrl: "https://wish.example/alerts/buy?token=k2&lang=en",
    unsubscribeUrl,
  },
  "low-stock": {
    template: "alert",
    lang,
    kind: "low_stock",
    title: "Tea Set",
    imageUrl: null,
    price: { minor: 1800, currency: "EUR" },
    previous: { minor: null, currency: "EUR" },
    lowest30Days: { minor: null, currency: "EUR" },
    quantity: 3,
    buyUrl: null,
    unsubscribeUrl,
  },
  reminder: {
    template: "reminder",
    lang,
    items: [
      { title: "Oak Lamp", imageUrl: picture(30), price: { minor: 2500, currency: "EUR" }, buyUrl: "https://shop.example/products/oak-lamp?wish_ref=a" },
      { title: "Wool Scarf", imageUrl: picture(140), price: { minor: 4990, currency: "EUR" }, buyUrl: "https://shop.example/products/scarf?wish_ref=b" },
      { title: "Gift card", imageUrl: null, price: { minor: null, currency: null }, buyUrl: null },
    ],
    more: 4,
    listsUrl: `https://wish.example/${lang}/lists`,
    unsubscribeUrl,
  },
  "alert-confirm": { template: "alert-confirm", lang, link: "https://wish.example/alerts/confirm?token=c0nf1rm&lang=en" },
  recovery: {
    template: "account-link",
    lang,
    kind: "recovery",
    link: "https://wish.example/en/account/reset#token=AbCdEf0123456789AbCdEf0123456789AbCdEf01234",
  },
  "email-change": { template: "account-link", lang, kind: "email_change", link: "https://wish.example/en/account/confirm-email#token=AbCdEf0123456789" },
  "usage-80": usage(lang, 80, false, 2.5),
  "usage-100-free": usage(lang, 100, true, null),
  "usage-100-overage": usage(lang, 100, false, 2.5),
});

const usage = (lang: Lang, threshold: number, hardLimit: boolean, overagePerActionMinor: number | null): EmailModel => ({
  template: "usage",
  lang,
  partnerName: "Oak & Wool",
  planName: hardLimit ? "Free" : "Starter",
  threshold,
  total: threshold === 100 ? 10_000 : 8_000,
  limit: 10_000,
  period: "2026-11",
  hardLimit,
  overagePerActionMinor,
  plansUrl: "https://admin.shopify.com/store/oak/apps/wishlist/app/plans",
});

describe("the e-mail templates", () => {
  it("write the alert's figures, links and footer in both parts, in each language", () => {
    const de = renderMail(models("de")["price-drop"]!)!;
    expect(de.subject).toBe("Preissenkung: Oak Lamp jetzt 25,00\u00a0€");
    expect(de.text).toContain("Oak Lamp kostet jetzt 25,00\u00a0€ statt 30,00\u00a0€.");
    expect(de.text).toContain("Niedrigster Preis der letzten 30 Tage vor der Senkung: 28,00\u00a0€");
    expect(de.text).toContain(`Abmelden: ${unsubscribeUrl}`);
    expect(de.html).toContain("<s>30,00\u00a0€</s>");
    expect(de.html).toMatch(/<img src="[^"]+" alt="Oak Lamp"/);
    expect(de.html).toContain('<html lang="de">');
    expect(de.html).toContain(`href="${unsubscribeUrl.replace(/&/g, "&amp;")}"`);
    const en = renderMail(models("en")["reminder"]!)!;
    expect(en.subject).toBe("Still on your list: 7 saved items");
    expect(en.text).toContain("Oak Lamp · €25.00\nBuy now: https://shop.example/products/oak-lamp?wish_ref=a");
    expect(en.text).toContain("And 4 more on your list: https://wish.example/en/lists");
    const recovery = renderMail(models("en").recovery!)!;
    expect(recovery.text).toBe(
      [
        "Hello,",
        "",
        "someone (hopefully you) asked to set a new password for your wishlist account. This link does it, for one hour and once:",
        "",
        "https://wish.example/en/account/reset#token=AbCdEf0123456789AbCdEf0123456789AbCdEf01234",
        "",
        "If that was not you, just ignore this e-mail: your password stays as it is.",
        "",
        "--",
        "You get this e-mail because someone asked for it on the wishlist.",
      ].join("\n")
    );
  });

  it("tell a partner where their month's actions stand and what happens at the limit", () => {
    const eighty = renderMail(models("en")["usage-80"]!)!;
    expect(eighty.subject).toBe("Oak & Wool: 80% of your Starter plan's wishlist actions used");
    expect(eighty.text).toContain("In 2026-11 your shop has used 8,000 of the 10,000 wishlist actions included in the Starter plan (80%).");
    expect(eighty.text).toContain("You can upgrade any time to get more actions.");
    expect(eighty.html).toContain("Oak &amp; Wool");
    expect(renderMail(models("en")["usage-100-free"]!)!.text).toContain("Saves are paused until next month unless you upgrade.");
    expect(renderMail(models("en")["usage-100-overage"]!)!.text).toContain("Further actions are billed at $0.025 each.");
    const de = renderMail(models("de")["usage-100-overage"]!)!;
    expect(de.subject).toBe("Oak & Wool: Die Wunschlisten-Aktionen Ihres Tarifs Starter sind aufgebraucht");
    expect(de.text).toContain("Weitere Aktionen kosten je 0,025\u00a0$.");
  });

  it("keep hostile values as text", () => {
    const hostile = `<script>alert(1)</script>" onerror="x`;
    const m = { ...models("en")["price-drop"]!, title: hostile, imageUrl: `x" onerror="alert(1)` } as EmailModel;
    const { html } = renderMail(m)!;
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain('" onerror="');
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("know no template they were not written for", () => {
    expect(renderMail({ template: "nope", lang: "en" })).toBeNull();
  });

  describe("in a browser", () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchBrowser();
      mkdirSync(out, { recursive: true });
    });
    afterAll(async () => {
      await browser?.close();
    });

    it("fit 375 px and 1280 px in both languages (screenshots)", async () => {
      const page = await browser.newPage();
      for (const lang of LANGS) {
        for (const [name, model] of Object.entries(models(lang))) {
          const { html } = renderMail(model)!;
          const file = path.join(out, `${name}-${lang}.html`);
          writeFileSync(file, html);
          for (const width of [375, 1280]) {
            await page.setViewportSize({ width, height: 800 });
            await page.goto(`file://${file}`);
            expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} ${lang} ${width}`).toBeLessThanOrEqual(width);
            await page.screenshot({ path: path.join(out, `${name}-${lang}-${width}.png`), fullPage: true });
          }
        }
      }
      await page.close();
    });
  });
});
