// A browser and a stand-in shop (browser.ts), the pair every storefront file starts before its
// pages: launched side by side, stopped together. One fixture instead of a copy per file.
import type { Browser } from "playwright-core";
import { launchBrowser, startShop, type ShopServer } from "./browser.ts";

export interface BrowserAndShop {
  browser: Browser;
  shop: ShopServer;
  /** Closes the browser and stops the shop. */
  stop: () => Promise<void>;
}

/** Chromium's headless shell (or the full browser, `kind` "chromium") and a stand-in shop. */
export async function startBrowserAndShop(kind?: Parameters<typeof launchBrowser>[0]): Promise<BrowserAndShop> {
  const [browser, shop] = await Promise.all([launchBrowser(kind), startShop()]);
  return {
    browser,
    shop,
    stop: async () => {
      await browser.close();
      await shop.stop();
    },
  };
}
