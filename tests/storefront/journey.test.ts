// The whole shopper journey with every real part: a shop page on another
// origin embeds widget.js with the copy-paste snippet of the README, the
// shopper presses a data-wish button, the real hosted dialog opens, the
// shopper saves as a guest, the page learns of it (event and saved button),
// and a reload still shows the product as saved (widget session store).
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { sharedApi } from "../support/api.ts";
import { clickAndClose, launchBrowser, startShop, watchConsole, type ShopServer } from "../support/browser.ts";
import { provisioner } from "../support/provision.ts";

let api: Awaited<ReturnType<typeof sharedApi>>;
let p: Awaited<ReturnType<typeof provisioner>>;
let browser: Browser;
let shop: ShopServer;

beforeAll(async () => {
  api = await sharedApi();
  p = await provisioner(api.server);
  [browser, shop] = await Promise.all([launchBrowser(), startShop()]);
});
afterAll(async () => {
  await browser?.close();
  await shop?.stop();
});

const HOST = "journey.shop.test";

async function shopWithButtons(key: string) {
  const product = () => `https://${HOST}/products/${randomBytes(3).toString("hex")}`;
  const [scarf, hat] = [product(), product()];
  const path = `/journey-${randomBytes(3).toString("hex")}`;
  shop.page(
    path,
    `<!doctype html><html lang="de"><head><title>Shop</title>
<script async src="${api.server.url}/sdk/v1/widget.js" data-wish-key="${key}" data-wish-locale="de-DE"></script></head>
<body><main><h1>Schals</h1>
<button type="button" id="scarf" data-wish data-url="${scarf}" data-title="Wollschal" data-price="4990" data-currency="EUR" data-metadata='{"variant_id":"901","quantity":1}'>Merken</button>
<button type="button" id="hat" data-wish data-url="${hat}" data-title="Mütze">Merken</button>
</main>
<script>
  window.events = [];
  (function wait() {
    if (!window.WishWidget) return setTimeout(wait, 10);
    ["saved", "close", "open", "error"].forEach(function (name) { WishWidget.on(name, function (e) { window.events.push({ name: name, detail: e }); }); });
  })();
</script></body></html>`,
  );
  return { url: shop.origin(HOST) + path, scarf, hat };
}

const eventNames = (page: Page) => page.evaluate(() => (window as any).events.map((e: { name: string }) => e.name) as string[]);

describe("shopper journey", () => {
  it("a guest saves from a data-wish button: saved event, saved button without reload, and after a reload", async () => {
    const partner = await p.partner();
    const key = (await p.key(partner.id, { domains: [HOST] })).key as string;
    const page_ = await shopWithButtons(key);
    const context = await browser.newContext();
    const console = watchConsole(context);
    const page = await context.newPage();
    await page.goto(page_.url);
    await page.waitForFunction(() => document.getElementById("scarf")?.getAttribute("aria-pressed") === "false");

    const [popup] = await Promise.all([page.waitForEvent("popup"), page.click("#scarf")]);
    await popup.getByRole("button", { name: "Als Gast fortfahren" }).click();
    await popup.getByRole("button", { name: "Speichern" }).click();
    await popup.getByRole("heading", { name: /^Gespeichert in/ }).waitFor();

    await expect.poll(() => eventNames(page)).toEqual(["open", "saved"]);
    const saved = await page.evaluate(() => (window as any).events[1].detail);
    expect(saved).toMatchObject({ wishlist_name: "Meine Wunschliste", product: { url: page_.scarf, title: "Wollschal", price: 4990 } });
    await page.waitForFunction(() => document.getElementById("scarf")?.getAttribute("aria-pressed") === "true");
    expect(await page.getAttribute("#scarf", "class")).toContain("wish-saved");
    expect(await page.getAttribute("#hat", "aria-pressed")).toBe("false");

    await clickAndClose(popup, "Schließen");
    await expect.poll(() => eventNames(page)).toEqual(["open", "saved", "close"]);

    // A later visit: the widget session restores the shopper, the server says what is saved.
    await page.reload();
    await page.waitForFunction(() => document.getElementById("scarf")?.getAttribute("aria-pressed") === "true");
    expect(await page.getAttribute("#hat", "aria-pressed")).toBe("false");

    // The shop's checkout metadata came along, because the dialog saved for the shop's own origin.
    const session = await restored(key, page);
    const products = await api.post("/widget/saved-products", {
      token: session.access_token,
      headers: { "x-widget-token": session.widgetToken, origin: shop.origin(HOST) },
    });
    expect(products.body.products[0]).toMatchObject({ url: page_.scarf, variantId: "901" });
    expect(console.errors).toEqual([]);
    await context.close();
  });
});

/** The session the page's widget session holds (as the SDK reads it). */
async function restored(key: string, page: Page) {
  const sid = await page.evaluate(() => localStorage.getItem("wish:sid"));
  const init = await api.post("/widget/init", { token: key, body: { origin: shop.origin(HOST), sid } });
  const res = await api.post("/widget/session-restore", {
    headers: { "x-widget-token": init.body.token, origin: shop.origin(HOST) },
    body: { sid },
  });
  return { access_token: res.body.session.access_token as string, widgetToken: init.body.token as string };
}
