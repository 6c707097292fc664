// widget.js on a Shopify store: a customer signed in to the store is
// recognised through the app's proxy on the shop's own domain
// (`POST /apps/wishlist/session`, docs/storefront-protocol.md "Who is
// recognised how"), without the dialog's sign-in. Shopify signs the request
// and names the customer; the answer is the shop page's shopper credential of
// their account and the list a save goes to. Anywhere else, or for a guest,
// null: the widget goes on as before.
import { tagAttr, type ShopperCredential } from "./common";

export interface CustomerCredential extends ShopperCredential {
  /** The customer's default list (its numeric id), where a click saves. */
  listId: number;
  /** Their saved products of this shop when the proxy answered: the page's hearts without another request. */
  saved?: Array<{ url: string | null; item_id: number }>;
}

let asked: Promise<CustomerCredential | null> | null = null;

/**
 * The signed-in customer's credential, or null. Asked once per page (again
 * only when the credential is about to expire: signing in or out of the store
 * loads a new page), only on Shopify storefronts (`window.Shopify.shop`), and
 * not when the theme says no customer is signed in (`data-wish-customer="0"`
 * on the script tag or `<html>`).
 */
export async function customerShopper(): Promise<CustomerCredential | null> {
  const current = await (asked ??= ask());
  if (current && current.expiresAt * 1000 - Date.now() < 60_000) return (asked = ask());
  return current;
}

async function ask(): Promise<CustomerCredential | null> {
  const shopify = (window as { Shopify?: { shop?: string } }).Shopify;
  if (!shopify?.shop || tagAttr("customer") === "0") return null;
  try {
    const res = await fetch((tagAttr("proxy") || "/apps/wishlist") + "/session", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
      credentials: "same-origin",
    });
    const data = res.ok ? await res.json() : null;
    const s = data && data.session;
    return s && data.list ? { token: s.access_token, expiresAt: s.expires_at, listId: data.list.id, saved: data.saved } : null;
  } catch {
    return null; // no proxy (another app's path, a theme preview): the dialog's flow
  }
}
