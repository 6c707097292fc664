// The demo shop page's HTML: a small shop with two products and the real
// save button, embedded exactly as docs/storefront.md tells a shop to
// (`data-wish` buttons and the widget.js script tag). No React, no inline
// script (the page's CSP allows scripts from the app only); images are the
// SVGs of public/demo/, so the page needs no network.
import { html, rawHtml } from "~/lib/html";
import { DEMO_PRODUCTS } from "~/domains/demo/demo-products";
import { formatMoney } from "~/lib/money";
import designCss from "~/hosted-pages/design.css?url";

const STYLES = `
body { margin: 0; font-family: system-ui, sans-serif; color: var(--text); background: var(--surface); }
header, main, footer { max-width: 60rem; margin: 0 auto; padding: var(--space-4); }
header { display: flex; align-items: baseline; justify-content: space-between; gap: var(--space-4); flex-wrap: wrap; }
.demo-note { background: var(--accent-soft); border: 1px solid var(--line); border-radius: var(--radius-m); padding: var(--space-3) var(--space-4); }
.demo-products { list-style: none; padding: 0; display: grid; gap: var(--space-5); grid-template-columns: repeat(auto-fit, minmax(15rem, 1fr)); }
.demo-product { background: var(--bg); border: 1px solid var(--line); border-radius: var(--radius-l); overflow: hidden; }
.demo-product img { display: block; width: 100%; height: auto; aspect-ratio: 1; }
.demo-product div { padding: var(--space-4); display: grid; gap: var(--space-2); }
.demo-product h2, .demo-product p { margin: 0; }
.demo-price { font-weight: 600; }
code { overflow-wrap: anywhere; }
[data-wish] { font: inherit; padding: var(--space-2) var(--space-4); border-radius: var(--radius-s); border: 1px solid var(--accent); background: var(--bg); color: var(--accent); cursor: pointer; justify-self: start; }
[data-wish]:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
`;

const price = (minor: number) => formatMoney(minor, "EUR", "en") ?? "";
const STYLE = rawHtml(STYLES);

/** The page at `appUrl`/demo, its buttons saving through `publicKey`. */
export function demoPageHtml(opts: { appUrl: string; publicKey: string }): string {
  const appUrl = opts.appUrl.replace(/\/+$/, "");
  const products = DEMO_PRODUCTS.map(
    (p, i) => html`${i > 0 ? "\n" : ""}<li class="demo-product">
  <img src="${p.image}" alt="" width="480" height="480">
  <div>
    <h2>${p.title}</h2>
    <p>${p.description}</p>
    <p class="demo-price">${price(p.price)}</p>
    <button type="button" data-wish
            data-url="${`${appUrl}/demo/${p.slug}`}"
            data-id="${p.slug}"
            data-title="${p.title}"
            data-description="${p.description}"
            data-image-url="${`${appUrl}${p.image}`}"
            data-price="${p.price}" data-currency="EUR" data-market="de-DE">Save to wishlist</button>
  </div>
</li>`
  );
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Demo shop</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${designCss}">
<style>${STYLE}</style>
</head>
<body>
<header>
  <p><strong>Demo shop</strong></p>
  <a href="${`${appUrl}/en/lists`}">My lists</a>
</header>
<main>
  <h1>Gifts for the cold season</h1>
  <p class="demo-note">This page is served by your local installation to show the save button at work. Click <em>Save to wishlist</em>: the hosted dialog opens, and the item lands in a real list on this server.</p>
  <ul class="demo-products">
${products}
  </ul>
</main>
<footer><p>Embedded as a shop would: <code>data-wish</code> buttons and <code>${`${appUrl}/sdk/v1/widget.js`}</code>.</p></footer>
<script src="${`${appUrl}/sdk/v1/widget.js`}" data-wish-key="${opts.publicKey}" data-wish-locale="en-US" async></script>
</body>
</html>
`.toString();
}

/** What /demo answers where the demo page is off: the same page as any unknown address. */
export const DEMO_NOT_FOUND_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page not found</title></head><body><main><h1>Page not found</h1><p>There is nothing at this address.</p></main></body></html>`;
