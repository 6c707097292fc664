// The wishlist page on the shop's own domain (`/apps/wishlist`), answered
// through the app proxy as Liquid so Shopify renders it inside the theme's
// layout. The template holds no Liquid of its own; every value goes through
// the `liquid` tagged template (~/lib/html), which escapes it as HTML and
// turns braces and percent signs into character references. Its script is static: it finds the
// proxy's path from the address bar, adds to Shopify's AJAX cart
// (`/cart/add.js`) with the item's signed reference as the hidden line-item
// property `_wish_ref` (read by orders/create), removes items and shares lists
// through the proxy's JSON routes.
import type { PageList } from "~/flows/storefront.server";
import { formatMoney } from "~/lib/money";
import { liquid, rawHtml, type SafeHtml } from "~/lib/html";
import { localeOf, type Lang } from "~/i18n/lang";
import { PROXY_TEXTS } from "~/i18n/proxy";

/** A price in minor units of its currency's own exponent; empty without an amount or currency. */
export function price(minor: number | null, currency: string | null, lang: Lang): string {
  if (minor === null || !currency) return "";
  return formatMoney(minor, currency, localeOf(lang)) ?? "";
}

// Reserved sizes (no layout shift), the theme's own font and colours; only classes of ours.
const STYLE = `
.wishp{max-width:960px;margin:0 auto;padding:24px 16px 48px}
.wishp h1{margin:0 0 16px}
.wishp-list{margin:0 0 32px}
.wishp-head{display:flex;flex-wrap:wrap;align-items:center;gap:8px 16px;justify-content:space-between;margin-bottom:12px}
.wishp-head h2{margin:0;flex:1 1 auto}
.wishp-share-out{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin-bottom:12px}
.wishp-share-out[hidden]{display:none}
.wishp-share-out input{flex:1;min-width:0;min-height:44px;padding:0 8px;font:inherit}
.wishp-items{list-style:none;margin:0;padding:0;display:grid;gap:16px;grid-template-columns:repeat(auto-fill,minmax(200px,1fr))}
.wishp-item{display:flex;flex-direction:column;gap:8px;border:1px solid rgba(0,0,0,.15);border-radius:8px;padding:12px}
.wishp-img{display:block;width:100%;aspect-ratio:1/1;object-fit:cover;border-radius:4px;background:rgba(0,0,0,.05)}
.wishp-title{font-weight:600;color:inherit}
.wishp-actions{display:flex;flex-wrap:wrap;gap:8px;margin-top:auto}
.wishp button,.wishp .wishp-btn{min-height:44px;padding:0 14px;font:inherit;cursor:pointer;border-radius:4px;border:1px solid currentColor;background:transparent;color:inherit;display:inline-flex;align-items:center;text-decoration:none}
.wishp .wishp-primary{background:#1a1a1a;color:#fff;border-color:#1a1a1a}
.wishp-status{min-height:1.5em;margin:0;font-size:.9em}
.wishp-join{border-top:1px solid rgba(0,0,0,.15);padding-top:16px}
.wishp-join h2{margin:0 0 8px}
`;

// Static: no value of the request or the database is written into it (they travel in data-* attributes).
const SCRIPT = `
(function () {
  var root = document.getElementById("wishp");
  if (!root) return;
  var base = location.pathname.replace(/\\/+$/, "");
  var cartRoot = (window.Shopify && window.Shopify.routes && window.Shopify.routes.root) || "/";
  function say(el, text) { if (el) el.textContent = text; }
  function post(url, body) {
    return fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json" }, body: JSON.stringify(body), credentials: "same-origin" })
      .then(function (res) { return res.json().catch(function () { return null; }).then(function (data) { if (!res.ok) throw data; return data; }); });
  }
  // A guest: the lists of this browser's widget session, drawn with textContent only.
  var guest = document.getElementById("wishp-guest");
  var sid = null;
  try { sid = localStorage.getItem("wish:sid"); } catch (e) { sid = null; }
  function el(tag, cls, text) { var n = document.createElement(tag); if (cls) n.className = cls; if (text) n.textContent = text; return n; }
  if (guest && sid) {
    post(base + "/items", { sid: sid }).then(function (res) {
      (res.lists || []).forEach(function (list, i) {
        var section = el("section", "wishp-list");
        section.setAttribute("data-list", "");
        var heading = el("h2", "", list.name);
        heading.id = "wishp-g" + i;
        section.setAttribute("aria-labelledby", heading.id);
        var head = el("div", "wishp-head");
        head.appendChild(heading);
        section.appendChild(head);
        var ul = el("ul", "wishp-items");
        list.items.forEach(function (item) {
          var li = el("li", "wishp-item");
          li.setAttribute("data-item", String(item.item_id));
          var img = el(item.image_url ? "img" : "span", "wishp-img");
          if (item.image_url) { img.src = item.image_url; img.alt = ""; img.width = 400; img.height = 400; } else img.setAttribute("aria-hidden", "true");
          li.appendChild(img);
          var title = el(item.url ? "a" : "span", "wishp-title", item.title);
          title.id = "wishp-gi" + item.item_id;
          if (item.url) title.href = item.url;
          li.appendChild(title);
          if (item.price) li.appendChild(el("span", "", item.price));
          var actions = el("div", "wishp-actions");
          if (item.variant_id) {
            var b = el("button", "wishp-primary", guest.getAttribute("data-t-cart"));
            b.type = "button";
            b.setAttribute("data-action", "cart");
            b.setAttribute("data-variant", item.variant_id);
            b.setAttribute("data-ref", item.wish_ref);
            b.setAttribute("aria-describedby", title.id);
            actions.appendChild(b);
          } else if (item.url) {
            var a = el("a", "wishp-btn wishp-primary", guest.getAttribute("data-t-view"));
            a.href = item.url;
            a.setAttribute("aria-describedby", title.id);
            actions.appendChild(a);
          }
          li.appendChild(actions);
          var status = el("p", "wishp-status");
          status.setAttribute("role", "status");
          li.appendChild(status);
          ul.appendChild(li);
        });
        section.appendChild(ul);
        guest.appendChild(section);
      });
    }, function () {});
  }
  root.addEventListener("click", function (ev) {
    var button = ev.target instanceof Element ? ev.target.closest("button[data-action]") : null;
    if (!button) return;
    var item = button.closest("[data-item]");
    var list = button.closest("[data-list]");
    var status = (item || list || button.closest(".wishp-join") || root).querySelector(".wishp-status");
    var action = button.getAttribute("data-action");
    button.disabled = true;
    var done = function () { button.disabled = false; };
    var failed = function () { say(status, root.getAttribute("data-t-failed")); done(); };
    if (action === "cart") {
      var line = { id: Number(button.getAttribute("data-variant")), quantity: 1, properties: { _wish_ref: button.getAttribute("data-ref") } };
      post(cartRoot + "cart/add.js", { items: [line] }).then(function () {
        say(status, root.getAttribute("data-t-added"));
        document.dispatchEvent(new CustomEvent("wish:cart", { detail: line }));
        done();
      }, failed);
    } else if (action === "remove") {
      post(base + "/remove", { item_id: Number(item.getAttribute("data-item")) }).then(function () {
        var heading = list.querySelector("h2");
        item.remove();
        var left = list.querySelectorAll("[data-item]").length;
        say(heading && heading.querySelector("small"), "(" + root.getAttribute(left === 1 ? "data-t-item" : "data-t-items").replace("#", String(left)) + ")");
        say(list.querySelector(".wishp-status"), root.getAttribute("data-t-removed"));
        if (heading) heading.focus();
      }, failed);
    } else if (action === "join") {
      // The join page opens in a popup within this click; its address (with a short-lived link token) follows.
      var popup = window.open("about:blank", "wish-link", "popup,width=480,height=720");
      if (!popup) { say(status, root.getAttribute("data-t-blocked")); done(); return; }
      post(base + "/link", {}).then(function (res) {
        popup.location.href = res.url;
        // Joined or not, the page shows what the store now knows once the popup closes.
        var watch = setInterval(function () { if (popup.closed) { clearInterval(watch); location.reload(); } }, 500);
        done();
      }, function () { popup.close(); failed(); });
    } else if (action === "share") {
      post(base + "/share", { list: list.getAttribute("data-list") }).then(function (res) {
        var out = list.querySelector(".wishp-share-out");
        var input = out.querySelector("input");
        input.value = res.url;
        out.hidden = false;
        input.select();
        if (navigator.clipboard) navigator.clipboard.writeText(res.url).then(function () { say(status, root.getAttribute("data-t-copied")); }, function () {});
        done();
      }, failed);
    }
  });
})();
`;

function itemHtml(item: PageList["items"][number], lang: Lang): SafeHtml {
  const x = PROXY_TEXTS[lang];
  const titleId = `wishp-i${item.itemId}`;
  const image = item.imageUrl
    ? liquid`<img class="wishp-img" src="${item.imageUrl}" alt="" width="400" height="400" loading="lazy">`
    : liquid`<span class="wishp-img" aria-hidden="true"></span>`;
  const title = item.url
    ? liquid`<a class="wishp-title" id="${titleId}" href="${item.url}" rel="noopener">${item.title}</a>`
    : liquid`<span class="wishp-title" id="${titleId}">${item.title}</span>`;
  const cost = price(item.priceMinor, item.currency, lang);
  const cart = item.variantId
    ? liquid`<button type="button" class="wishp-primary" data-action="cart" data-variant="${item.variantId}" data-ref="${item.wishRef}" aria-describedby="${titleId}">${x.addToCart}</button>`
    : item.url
    ? liquid`<a class="wishp-btn wishp-primary" href="${item.url}" aria-describedby="${titleId}">${x.view}</a>`
    : "";
  return liquid`<li class="wishp-item" data-item="${item.itemId}">${image}${title}${
    cost ? liquid`<span>${cost}</span>` : ""
  }<div class="wishp-actions">${cart}<button type="button" data-action="remove" aria-describedby="${titleId}">${
    x.remove
  }</button></div><p class="wishp-status" role="status"></p></li>`;
}

function listHtml(list: PageList, index: number, lang: Lang): SafeHtml {
  const x = PROXY_TEXTS[lang];
  const headingId = `wishp-l${index}`;
  return liquid`<section class="wishp-list" data-list="${list.token}" aria-labelledby="${headingId}">
<div class="wishp-head"><h2 id="${headingId}" tabindex="-1">${list.name} <small>(${x.items(list.items.length)})</small></h2>
<button type="button" data-action="share" aria-describedby="${headingId}">${x.share}</button></div>
<div class="wishp-share-out"${list.shareUrl ? "" : rawHtml(" hidden")}><label for="${headingId}-url">${
    x.shareLink
  }</label><input id="${headingId}-url" type="url" readonly value="${list.shareUrl ?? ""}"></div>
<p class="wishp-status" role="status"></p>
<ul class="wishp-items">${list.items.map((i) => itemHtml(i, lang))}</ul></section>`;
}

function joinHtml(lang: Lang): SafeHtml {
  const x = PROXY_TEXTS[lang];
  return liquid`<section class="wishp-join" aria-labelledby="wishp-join-h"><h2 id="wishp-join-h">${x.joinTitle}</h2><p>${x.joinIntro}</p>
<button type="button" data-action="join">${x.join}</button><p class="wishp-status" role="status"></p></section>`;
}

/**
 * The page body (Liquid, rendered by Shopify in the theme's layout). `lists` is null for a guest;
 * `offerJoin` adds the offer to join the store wishlist with the customer's account of ours.
 */
export function wishlistPage(lists: PageList[] | null, lang: Lang, opts: { offerJoin?: boolean } = {}): string {
  const x = PROXY_TEXTS[lang];
  const data = liquid`data-t-item="${x.items(1)}" data-t-items="${x.items(0).replace("0", "#")}" data-t-added="${x.added}" data-t-removed="${
    x.removed
  }" data-t-copied="${x.copied}" data-t-failed="${x.failed}" data-t-blocked="${x.popupBlocked}"`;
  let body: SafeHtml;
  if (lists === null) {
    // return_url: back here after Shopify's sign-in. An attribute after href keeps the library's
    // trailing-slash rewrite of relative links (liquid()) off this one: it would change Shopify's login path.
    body = liquid`<p>${x.guestIntro}</p><p><a class="wishp-btn wishp-primary" href="/account/login?return_url=%2Fapps%2Fwishlist" lang="${lang}">${x.signIn}</a></p><div id="wishp-guest" data-t-cart="${x.addToCart}" data-t-view="${x.view}"></div>`;
  } else if (lists.length === 0) {
    body = liquid`<p>${x.empty}</p>`;
  } else {
    body = liquid`${lists.map((l, i) => liquid`${i > 0 ? "\n" : ""}${listHtml(l, i, lang)}`)}`;
  }
  if (lists !== null && opts.offerJoin) body = liquid`${body}\n${joinHtml(lang)}`;
  return liquid`<style>${rawHtml(STYLE)}</style>
<div class="wishp" id="wishp" lang="${lang}" ${data}>
<h1>${x.title}</h1>
${body}
</div>
<script>${rawHtml(SCRIPT)}</script>
`.toString();
}
