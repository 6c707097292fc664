// Loaded into a built server process (`NODE_OPTIONS=--import …`, see
// fakeAdminForServer in shopify.ts) before the app: the Shopify library
// captures `fetch` when it is imported, so replacing it here sends the
// server's Admin API calls (https://<shop>.myshopify.com/admin/…) to the
// fake Admin API of the test process at FAKE_SHOPIFY_ADMIN. Everything else
// goes out as before.
/* global URL, Request, Headers */
const target = process.env.FAKE_SHOPIFY_ADMIN;
const real = globalThis.fetch;
if (target) {
  globalThis.fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!url.hostname.endsWith(".myshopify.com") || !url.pathname.startsWith("/admin/")) return real(input, init);
    const headers = new Headers(input instanceof Request ? input.headers : init?.headers);
    headers.set("x-fake-shop", url.hostname);
    return real(`${target}${url.pathname}${url.search}`, { method: init?.method ?? "POST", headers, body: init?.body });
  };
}
