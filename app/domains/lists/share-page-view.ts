// The share page's HTML (docs/storefront.md "Share pages and link previews"): one string
// template, no React, so a view costs the reads and little more. Every value
// that comes from a user or a shop goes through `esc` (text and attributes
// alike); URLs have passed the http(s) rule before they get here.
// Styles: app/hosted-pages/design.css (tokens, buttons) and app/styles/share.css.
import { previewTags } from "~/domains/previews/preview-tags";
import designCss from "~/hosted-pages/design.css?url";
import shareCss from "~/styles/share.css?url";
import type { ShopAccent } from "~/hosted-pages/accent";
import type { ShareItem, SharePage } from "./share-page.server";
import { shareTexts, type ShareLang } from "./share-texts";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const SPECIAL = /[&<>"']/;
const SPECIALS = /[&<>"']/g;

/** HTML-escapes text and attribute values (double-quoted attributes only). */
export const esc = (value: string): string => (SPECIAL.test(value) ? value.replace(SPECIALS, (c) => ESCAPES[c]!) : value);

/** Address of the page in `lang` (the token as a path segment). */
export const sharePath = (lang: ShareLang, token: string) => `/${lang}/list/${encodeURIComponent(token)}`;

/**
 * The purchased toggle with JavaScript: a fetch instead of the form post,
 * updated in place, the new state announced (the form works without it).
 * Each form holds the item id; its button's name/value is the flag to send.
 */
export const SHARE_PAGE_SCRIPT = `(function () {
  var list = document.querySelector(".share-items[data-mark]");
  if (!list || !window.fetch || !window.FormData || !window.URLSearchParams) return;
  var t = list.dataset;
  var forms = list.querySelectorAll("form.share-toggle");
  for (var i = 0; i < forms.length; i++) {
    var flag = document.createElement("input");
    flag.type = "hidden";
    flag.name = "enhanced";
    flag.value = "1";
    forms[i].appendChild(flag);
  }
  var live = document.createElement("p");
  live.className = "visually-hidden";
  live.setAttribute("aria-live", "polite");
  document.body.appendChild(live);
  function show(form, purchased, failed) {
    var card = form.closest("li");
    var title = card.querySelector("h3").textContent;
    var button = form.querySelector("button");
    var label = purchased ? t.unmark : t.mark;
    card.classList.toggle("is-purchased", purchased);
    button.value = purchased ? "false" : "true";
    button.textContent = label;
    button.setAttribute("aria-label", label + ": " + title);
    var badge = form.querySelector(".share-badge");
    if (badge) badge.parentNode.removeChild(badge);
    if (purchased) {
      badge = document.createElement("span");
      badge.className = "share-badge";
      badge.textContent = t.purchased;
      form.insertBefore(badge, button);
    }
    live.textContent = purchased && !failed ? t.purchased + ": " + title : "";
    var error = form.querySelector(".share-error");
    if (error) error.parentNode.removeChild(error);
    if (failed) {
      error = document.createElement("p");
      error.className = "share-error";
      error.setAttribute("role", "alert");
      error.textContent = t.failed;
      form.appendChild(error);
    }
  }
  list.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList || !form.classList.contains("share-toggle")) return;
    event.preventDefault();
    if (form.getAttribute("aria-busy") === "true") return;
    var button = form.querySelector("button");
    var wanted = button.value === "true";
    var body = new URLSearchParams(new FormData(form));
    body.set(button.name, button.value);
    form.setAttribute("aria-busy", "true");
    show(form, wanted, false);
    fetch(form.action, { method: "POST", body: body, headers: { accept: "application/json" }, credentials: "same-origin" })
      .then(function (res) {
        return res.json().then(function (data) { return res.ok && data && data.ok === true ? data : null; });
      })
      .catch(function () { return null; })
      .then(function (data) {
        form.removeAttribute("aria-busy");
        if (data) show(form, data.purchased === true, false);
        else show(form, !wanted, true);
      });
  });
})();`;

/**
 * The view beacon of a shareable page: SPEC 8 counts a list_view when a
 * person views the list, and the page itself may come from a CDN, so the page
 * reports its view to the origin (POST `<page>/view`, never cached). A page
 * being prerendered reports when it is shown; without JavaScript the
 * `<noscript>` image does the same. Crawlers that run no script and load no
 * images report nothing.
 */
export const VIEW_BEACON_SCRIPT = `(function () {
  var url = location.pathname.replace(/\\/+$/, "") + "/view";
  function send() {
    if (window.fetch) fetch(url, { method: "POST", credentials: "same-origin", keepalive: true, cache: "no-store" }).catch(function () {});
    else new Image().src = url;
  }
  if (document.prerendering) document.addEventListener("prerenderingchange", send, { once: true });
  else send();
})();`;

/** The page's inline scripts: the CSP allows them by hash, so a cached page needs no per-response nonce. */
export const SHARE_PAGE_INLINE_SCRIPTS = [SHARE_PAGE_SCRIPT, VIEW_BEACON_SCRIPT] as const;

const GIFT_ICON =
  '<svg class="share-icon" aria-hidden="true" focusable="false" viewBox="0 0 24 24" width="24" height="24" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linejoin="round">' +
  '<rect x="3.5" y="8" width="17" height="4" rx="1"/><path d="M5.5 12v8h13v-8M12 8v12M12 8C10 4 6.5 4.5 7.5 7c.5 1 4.5 1 4.5 1Zm0 0c2-4 5.5-3.5 4.5-1-.5 1-4.5 1-4.5 1Z"/></svg>';

interface Head {
  lang: ShareLang;
  title: string;
  /** Extra head markup (already escaped). */
  extra: string;
  accent: ShopAccent | null;
}

function documentStart({ lang, title, extra, accent }: Head): string {
  // Only validated #rrggbb values reach this style; print keeps design.css's black accent.
  const accentStyle = accent
    ? `\n<style>@media screen{:root{--accent:${accent.accent};--accent-text:${accent.text};--accent-ink:${accent.ink}}}</style>`
    : "";
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
${extra}<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${esc(designCss)}">
<link rel="stylesheet" href="${esc(shareCss)}">${accentStyle}
</head>
<body>
`;
}

function siteHeader(lang: ShareLang, token: string | null): string {
  const t = shareTexts(lang);
  const languages = token
    ? `<nav class="share-langs" aria-label="${esc(t.languages)}"><ul>${(["de", "en"] as const)
        .map(
          (l) =>
            `<li><a href="${esc(sharePath(l, token))}" hreflang="${l}" lang="${l}"${l === lang ? ' aria-current="page"' : ""}>${l === "de" ? "Deutsch" : "English"}</a></li>`,
        )
        .join("")}</ul></nav>`
    : "";
  return `<header class="share-header"><div class="share-bar"><p class="share-site">${GIFT_ICON}<span>${esc(t.siteName)}</span></p>${languages}</div></header>\n`;
}

// Per item the markup is kept lean (a list may hold hundreds): the placeholder is CSS, the forms post to the page's own address.
function itemCard(item: ShareItem, index: number, page: SharePage): string {
  const t = shareTexts(page.lang);
  const title = esc(item.title);
  const classes = `share-item${item.mostWanted ? " is-top" : ""}${item.purchased ? " is-purchased" : ""}`;
  // The first row loads at once; the rest when scrolled near.
  const loading = index < 4 ? "" : ' loading="lazy"';
  const media = item.imageUrl
    ? `<img src="${esc(item.imageUrl)}" alt="" width="480" height="480"${loading} decoding="async">`
    : `<span class="share-noimage"></span>`;
  const top = item.mostWanted ? `<p class="share-top"><span aria-hidden="true">★ </span>${esc(t.mostWanted)}</p>` : "";
  const price = item.price ? `<p class="share-price"><span class="visually-hidden">${esc(t.price)}: </span>${esc(item.price)}</p>` : "";
  const shop = item.shopName ? esc(item.shopName) : "";
  const buy =
    item.buyUrl && shop
      ? `<a href="${esc(item.buyUrl)}" class="btn-primary share-buy" rel="noopener nofollow ugc" target="_blank">${esc(t.buyAt(item.shopName!))}<span class="visually-hidden">: ${title} (${esc(t.newTab)})</span></a>`
      : "";
  let toggle = "";
  if (item.purchased !== null) {
    const label = item.purchased ? t.unmark : t.markPurchased;
    // No action: the form posts to the page's own address, ?reveal=1 included.
    toggle =
      `<form method="post" class="share-toggle"><input type="hidden" name="itemId" value="${item.itemId}">` +
      (item.purchased ? `<span class="share-badge">${esc(t.purchased)}</span>` : "") +
      `<button type="submit" name="purchased" value="${item.purchased ? "false" : "true"}" class="btn share-mark" aria-label="${esc(label)}: ${title}">${esc(label)}</button>` +
      `</form>`;
  }
  return (
    `<li class="${classes}">` +
    `<div class="share-media">${media}</div>` +
    `<div class="share-item-body"><h3>${title}</h3>${top}${price}${shop ? `<p class="share-source">${shop}</p>` : ""}` +
    (buy || toggle ? `<div class="share-actions">${buy}${toggle}</div>` : "") +
    `</div></li>\n`
  );
}

/** The share page; `failed` adds the message of a form post that did not work. Its scripts are SHARE_PAGE_INLINE_SCRIPTS. */
export function sharePageHtml(page: SharePage, opts: { failed?: boolean } = {}): string {
  const t = shareTexts(page.lang);
  const p = page.preview;
  const base = sharePath(page.lang, page.token);
  const meta = previewTags(p)
    .map((tag) =>
      "property" in tag ? `<meta property="${esc(tag.property)}" content="${esc(tag.content)}">` : `<meta name="${esc(tag.name)}" content="${esc(tag.content)}">`,
    )
    .join("\n");
  const head =
    `<meta name="description" content="${esc(p.description)}">\n` +
    `<link rel="canonical" href="${esc(p.url)}">\n` +
    p.alternates.map((a) => `<link rel="alternate" hreflang="${esc(a.hrefLang)}" href="${esc(a.href)}">\n`).join("") +
    `${meta}\n` +
    (page.analyticsToken ? `<meta name="wish-analytics-token" content="${esc(page.analyticsToken)}">\n` : "");

  const { list } = page;
  const initial = /[\p{L}\p{N}]/u.exec(list.ownerName)?.[0]?.toLocaleUpperCase(t.locale);
  const avatar = list.ownerAvatar
    ? `<img class="share-avatar" src="${esc(list.ownerAvatar)}" alt="${esc(t.ownerAvatar(list.ownerName))}" width="48" height="48">`
    : initial
      ? `<span class="share-avatar share-initial" aria-hidden="true">${esc(initial)}</span>`
      : "";
  const facts = [
    list.occasionTitle ? `<li class="share-occasion"><span class="share-label">${esc(t.occasion)}:</span> ${esc(list.occasionTitle)}</li>` : "",
    `<li class="share-total">${esc(t.wishes(list.itemCount))}</li>`,
  ].join("");
  const spoiler =
    page.spoiler === "hidden"
      ? `<p class="share-spoiler" role="note">${esc(t.spoilerHidden)} <a href="${esc(base)}?reveal=1">${esc(t.spoilerShow)}</a></p>`
      : page.spoiler === "revealed"
        ? `<p class="share-spoiler" role="note">${esc(t.spoilerRevealed)} <a href="${esc(base)}">${esc(t.spoilerHide)}</a></p>`
        : "";
  const toggles = page.items.some((i) => i.purchased !== null);
  const texts = toggles
    ? ` data-mark="${esc(t.markPurchased)}" data-unmark="${esc(t.unmark)}" data-purchased="${esc(t.purchased)}" data-failed="${esc(t.saveFailed)}"`
    : "";

  return (
    documentStart({ lang: page.lang, title: `${p.title} · ${p.siteName}`, extra: head, accent: page.accent }) +
    `<a class="share-skip" href="#wishes">${esc(t.skipToContent)}</a>\n<div class="share">\n` +
    siteHeader(page.lang, page.token) +
    `<main class="share-main">\n` +
    `<section class="share-intro" aria-labelledby="list-name">` +
    `<h1 id="list-name">${esc(list.name)}</h1>` +
    `<p class="share-owner">${avatar}<span class="share-by">${esc(t.byOwner(list.ownerName))}</span></p>` +
    `<ul class="share-facts">${facts}</ul>` +
    (list.description ? `<p class="share-description">${esc(list.description)}</p>` : "") +
    spoiler +
    `</section>\n` +
    (opts.failed ? `<p role="alert" class="share-alert">${esc(t.saveFailed)}</p>\n` : "") +
    `<section class="share-list" id="wishes" tabindex="-1" aria-labelledby="items-heading">` +
    `<h2 id="items-heading" class="visually-hidden">${esc(t.items)}</h2>\n` +
    (page.items.length === 0 ? `<p class="share-empty">${esc(t.empty)}</p>\n` : "") +
    `<ul class="share-items"${texts}>\n${page.items.map((item, i) => itemCard(item, i, page)).join("")}</ul>\n` +
    `</section>\n</main>\n</div>\n` +
    (toggles ? `<script>${SHARE_PAGE_SCRIPT}</script>\n` : "") +
    (page.shareable
      ? `<script>${VIEW_BEACON_SCRIPT}</script>\n<noscript><img class="share-beacon" src="${esc(base)}/view" alt="" width="1" height="1"></noscript>\n`
      : "") +
    `</body>\n</html>\n`
  );
}

/** A page with a heading and a sentence: the localized 404 (private or unknown list, other language) and the error page. */
export function messagePageHtml(lang: ShareLang, kind: "not_found" | "error" | "unavailable"): string {
  const t = shareTexts(lang);
  const [title, text] = {
    not_found: [t.notFoundTitle, t.notFoundText],
    error: [t.errorTitle, t.errorText],
    unavailable: [t.unavailableTitle, t.unavailableText],
  }[kind];
  return (
    documentStart({ lang, title: `${title} · ${t.siteName}`, extra: '<meta name="robots" content="noindex">\n', accent: null }) +
    `<div class="share">\n${siteHeader(lang, null)}<main class="share-main share-notfound">\n<h1>${esc(title)}</h1>\n<p>${esc(text)}</p>\n</main>\n</div>\n</body>\n</html>\n`
  );
}
