// The share page's HTML (docs/storefront.md "Share pages and link previews"): one string
// template, no React, so a view costs the reads and little more. Every value
// goes through the `html` tagged template (~/lib/html), which escapes it (text
// and attributes alike); URLs have passed the http(s) rule before they get here.
// Styles: app/hosted-pages/design.css (tokens, buttons) and app/styles/share.css.
import { html, rawHtml, type SafeHtml } from "~/lib/html";
import designCss from "~/hosted-pages/design.css?url";
import shareCss from "~/styles/share.css?url";
import type { ShopAccent } from "~/hosted-pages/accent";
import { LANGS, type Lang } from "~/i18n/lang";
import { shareTexts } from "~/i18n/share";
import type { ShareItem, SharePageData } from "~/domains/lists/share-page.server";
import { previewMeta, type LinkPreview } from "../link-preview.server";

/** The page as it is written: the lists domain's data, its link preview and the shop's accent (share-page.server.ts composes it). */
export interface SharePage extends Omit<SharePageData, "basketColor"> {
  preview: LinkPreview;
  /** The shop's colour when every item comes from one partner with a basket configuration; null: the default accent. */
  accent: ShopAccent | null;
}

/** Address of the page in `lang` (the token as a path segment). */
export const sharePath = (lang: Lang, token: string) => `/${lang}/list/${encodeURIComponent(token)}`;

/** The languages' names in their own language, for the language switch. */
const LANGUAGE_NAMES: Readonly<Record<Lang, string>> = { de: "Deutsch", en: "English" };

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

const GIFT_ICON = rawHtml(
  '<svg class="share-icon" aria-hidden="true" focusable="false" viewBox="0 0 24 24" width="24" height="24" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linejoin="round">' +
    '<rect x="3.5" y="8" width="17" height="4" rx="1"/><path d="M5.5 12v8h13v-8M12 8v12M12 8C10 4 6.5 4.5 7.5 7c.5 1 4.5 1 4.5 1Zm0 0c2-4 5.5-3.5 4.5-1-.5 1-4.5 1-4.5 1Z"/></svg>'
);

interface Head {
  lang: Lang;
  title: string;
  extra: SafeHtml;
  accent: ShopAccent | null;
}

function documentStart({ lang, title, extra, accent }: Head): SafeHtml {
  // Only validated #rrggbb values reach this style; print keeps design.css's black accent.
  const accentStyle = accent
    ? html`\n<style>@media screen{:root{--accent:${accent.accent};--accent-text:${accent.text};--accent-ink:${accent.ink}}}</style>`
    : "";
  return html`<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
${extra}<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${designCss}">
<link rel="stylesheet" href="${shareCss}">${accentStyle}
</head>
<body>
`;
}

function siteHeader(lang: Lang, token: string | null): SafeHtml {
  const t = shareTexts(lang);
  const languages = token
    ? html`<nav class="share-langs" aria-label="${t.languages}"><ul>${LANGS.map(
        (l) =>
          html`<li><a href="${sharePath(l, token)}" hreflang="${l}" lang="${l}"${l === lang ? rawHtml(' aria-current="page"') : ""}>${
            LANGUAGE_NAMES[l]
          }</a></li>`
      )}</ul></nav>`
    : "";
  return html`<header class="share-header"><div class="share-bar"><p class="share-site">${GIFT_ICON}<span>${t.siteName}</span></p>${languages}</div></header>\n`;
}

// Per item the markup is kept lean (a list may hold hundreds): the placeholder is CSS, the forms post to the page's own address.
function itemCard(item: ShareItem, index: number, page: SharePage): SafeHtml {
  const t = shareTexts(page.lang);
  const classes = `share-item${item.mostWanted ? " is-top" : ""}${item.purchased ? " is-purchased" : ""}`;
  // The first row loads at once; the rest when scrolled near.
  const loading = index < 4 ? "" : rawHtml(' loading="lazy"');
  const media = item.imageUrl
    ? html`<img src="${item.imageUrl}" alt="" width="480" height="480"${loading} decoding="async">`
    : html`<span class="share-noimage"></span>`;
  const top = item.mostWanted ? html`<p class="share-top"><span aria-hidden="true">★ </span>${t.mostWanted}</p>` : "";
  const price = item.price ? html`<p class="share-price"><span class="visually-hidden">${t.price}: </span>${item.price}</p>` : "";
  const shop = item.shopName ?? "";
  const buy =
    item.buyUrl && shop
      ? html`<a href="${item.buyUrl}" class="btn-primary share-buy" rel="noopener nofollow ugc" target="_blank">${t.buyAt(
          shop
        )}<span class="visually-hidden">: ${item.title} (${t.newTab})</span></a>`
      : "";
  let toggle: SafeHtml | "" = "";
  if (item.purchased !== null) {
    const label = item.purchased ? t.unmark : t.markPurchased;
    // No action: the form posts to the page's own address, ?reveal=1 included.
    toggle = html`<form method="post" class="share-toggle"><input type="hidden" name="itemId" value="${item.itemId}">${
      item.purchased ? html`<span class="share-badge">${t.purchased}</span>` : ""
    }<button type="submit" name="purchased" value="${item.purchased ? "false" : "true"}" class="btn share-mark" aria-label="${label}: ${
      item.title
    }">${label}</button></form>`;
  }
  return html`<li class="${classes}"><div class="share-media">${media}</div><div class="share-item-body"><h3>${item.title}</h3>${top}${price}${
    shop ? html`<p class="share-source">${shop}</p>` : ""
  }${buy || toggle ? html`<div class="share-actions">${buy}${toggle}</div>` : ""}</div></li>\n`;
}

/** The share page; `failed` adds the message of a form post that did not work. Its scripts are SHARE_PAGE_INLINE_SCRIPTS. */
export function sharePageHtml(page: SharePage, opts: { failed?: boolean } = {}): string {
  const t = shareTexts(page.lang);
  const p = page.preview;
  const base = sharePath(page.lang, page.token);
  const head = html`<meta name="description" content="${p.description}">
<link rel="canonical" href="${p.url}">
${p.alternates.map((a) => html`<link rel="alternate" hreflang="${a.hrefLang}" href="${a.href}">\n`)}${previewMeta(p).map((tag, i) =>
    i === 0 ? tag : html`\n${tag}`
  )}
${page.analyticsToken ? html`<meta name="wish-analytics-token" content="${page.analyticsToken}">\n` : ""}`;

  const { list } = page;
  const initial = /[\p{L}\p{N}]/u.exec(list.ownerName)?.[0]?.toLocaleUpperCase(t.locale);
  const avatar = list.ownerAvatar
    ? html`<img class="share-avatar" src="${list.ownerAvatar}" alt="${t.ownerAvatar(list.ownerName)}" width="48" height="48">`
    : initial
    ? html`<span class="share-avatar share-initial" aria-hidden="true">${initial}</span>`
    : "";
  const facts = html`${
    list.occasionTitle ? html`<li class="share-occasion"><span class="share-label">${t.occasion}:</span> ${list.occasionTitle}</li>` : ""
  }<li class="share-total">${t.wishes(list.itemCount)}</li>`;
  const spoiler =
    page.spoiler === "hidden"
      ? html`<p class="share-spoiler" role="note">${t.spoilerHidden} <a href="${base}?reveal=1">${t.spoilerShow}</a></p>`
      : page.spoiler === "revealed"
      ? html`<p class="share-spoiler" role="note">${t.spoilerRevealed} <a href="${base}">${t.spoilerHide}</a></p>`
      : "";
  const toggles = page.items.some((i) => i.purchased !== null);
  const texts = toggles ? html` data-mark="${t.markPurchased}" data-unmark="${t.unmark}" data-purchased="${t.purchased}" data-failed="${t.saveFailed}"` : "";

  return html`${documentStart({
    lang: page.lang,
    title: `${p.title} · ${p.siteName}`,
    extra: head,
    accent: page.accent,
  })}<a class="share-skip" href="#wishes">${t.skipToContent}</a>
<div class="share">
${siteHeader(page.lang, page.token)}<main class="share-main">
<section class="share-intro" aria-labelledby="list-name"><h1 id="list-name">${list.name}</h1><p class="share-owner">${avatar}<span class="share-by">${t.byOwner(
    list.ownerName
  )}</span></p><ul class="share-facts">${facts}</ul>${list.description ? html`<p class="share-description">${list.description}</p>` : ""}${spoiler}</section>
${
  opts.failed ? html`<p role="alert" class="share-alert">${t.saveFailed}</p>\n` : ""
}<section class="share-list" id="wishes" tabindex="-1" aria-labelledby="items-heading"><h2 id="items-heading" class="visually-hidden">${t.items}</h2>
${page.items.length === 0 ? html`<p class="share-empty">${t.empty}</p>\n` : ""}<ul class="share-items"${texts}>
${page.items.map((item, i) => itemCard(item, i, page))}</ul>
</section>
</main>
</div>
${toggles ? html`<script>${rawHtml(SHARE_PAGE_SCRIPT)}</script>\n` : ""}${
    page.shareable
      ? html`<script>${rawHtml(VIEW_BEACON_SCRIPT)}</script>\n<noscript><img class="share-beacon" src="${base}/view" alt="" width="1" height="1"></noscript>\n`
      : ""
  }</body>
</html>
`.toString();
}

/** A page with a heading and a sentence: the localized 404 (private or unknown list, other language) and the error page. */
export function messagePageHtml(lang: Lang, kind: "not_found" | "error" | "unavailable"): string {
  const t = shareTexts(lang);
  const [title, text] = {
    not_found: [t.notFoundTitle, t.notFoundText],
    error: [t.errorTitle, t.errorText],
    unavailable: [t.unavailableTitle, t.unavailableText],
  }[kind];
  return html`${documentStart({
    lang,
    title: `${title} · ${t.siteName}`,
    extra: html`<meta name="robots" content="noindex">\n`,
    accent: null,
  })}<div class="share">
${siteHeader(lang, null)}<main class="share-main share-notfound">
<h1>${title}</h1>
<p>${text}</p>
</main>
</div>
</body>
</html>
`.toString();
}
