// The pages of Shopify's own Dawn 15.4.1 and Horizon 4.1.3 as their Liquid outputs them, for
// the hearts test and the storefront benchmark: the themes' class names, custom elements,
// attributes and nesting (header, product grid and cards with badges and quick add, the
// quick-add dialog, search results, the main product section with recommendations), served
// with the themes' own CSS (tests/support/themes/, see its README for files and versions).
// Text, images and settings are the fixture's; the Liquid logic is left out.

export interface FixtureProduct {
  id: number;
  handle: string;
  title: string;
  price: number;
  compareAt?: number;
  available: boolean;
  variantId: number;
}

const NAMES = ["Linen shirt", "Wool scarf", "Canvas tote", "Leather belt", "Cotton tee", "Denim jacket", "Rain coat", "Knit beanie"];
/** 48 products: the collection's pages show 24 each (48 on one page with `?per_page=48`, the theme's products-per-page setting). Sale: 2, 7, 14, 26; sold out: 5, 20. */
export const ALL_PRODUCTS: FixtureProduct[] = Array.from({ length: 48 }, (_, i) => ({
  id: 7000 + i,
  handle: `item-${String(i + 1).padStart(2, "0")}`,
  title: `${NAMES[i % NAMES.length]} ${Math.floor(i / NAMES.length) + 1}`,
  price: 1900 + i * 150,
  compareAt: [1, 6, 13, 25].includes(i) ? 1900 + i * 150 + 1000 : undefined,
  available: ![4, 19].includes(i),
  variantId: 41000 + i,
}));
export const PRODUCTS = ALL_PRODUCTS.slice(0, 24);

export type ThemeName = "dawn" | "horizon";
export type FixturePage = "home" | "product" | "collection" | "search";
export const FIXTURE_PATHS: Record<FixturePage, string> = {
  home: "/",
  product: `/products/${PRODUCTS[0]!.handle}`,
  collection: "/collections/all",
  search: "/search?q=linen",
};

/** What a collection request asks for: Shopify's filter, sort and page parameters. */
export interface Listing {
  sort?: string;
  available?: boolean;
  page?: number;
  /** Products per page (the theme's setting; 24 unless the fixture is asked for another with `?per_page=`). */
  perPage?: number;
}

/** The products of a collection page as Shopify would list them. */
export function listing(l: Listing): FixtureProduct[] {
  let list = [...ALL_PRODUCTS];
  if (l.available) list = list.filter((p) => p.available);
  if (l.sort === "price-descending") list.reverse();
  const page = l.page ?? 1;
  const size = l.perPage ?? 24;
  return list.slice((page - 1) * size, page * size);
}
export const searchResults = () => ALL_PRODUCTS.filter((p) => p.title.startsWith("Linen") || p.title.startsWith("Knit"));

export const money = (minor: number) => `€${(minor / 100).toFixed(2).replace(".", ",")}`;
export const imageOf = (p: FixtureProduct) => `/cdn/img/${p.handle}.svg`;
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");
const payload = (p: FixtureProduct, context: string | null) =>
  esc(JSON.stringify({ product: { id: p.id, title: p.title, handle: p.handle, selectedVariant: null }, context, selectedOptions: [] }));

export interface PageOptions {
  embed: string;
  /** Horizon: the card heart app block's markup for a product (the block added to the product card), else none. */
  cardBlock?: (p: FixtureProduct) => string;
  /** Dawn's badge_position / Horizon's badge_position setting. */
  badgePosition?: string;
}

// ------------------------------------------------------------------ Dawn 15.4.1

const DAWN_ICON = {
  search:
    '<svg xmlns="http://www.w3.org/2000/svg" fill="none" class="icon icon-search" viewBox="0 0 18 19"><path fill="currentColor" fill-rule="evenodd" d="M11.03 11.68A5.784 5.784 0 1 1 2.85 3.5a5.784 5.784 0 0 1 8.18 8.18m.26 1.12a6.78 6.78 0 1 1 .72-.7l5.4 5.4a.5.5 0 1 1-.71.7z" clip-rule="evenodd"/></svg>',
  account:
    '<svg xmlns="http://www.w3.org/2000/svg" fill="none" class="icon icon-account" viewBox="0 0 18 19"><path fill="currentColor" fill-rule="evenodd" d="M6 4.5a3 3 0 1 1 6 0 3 3 0 0 1-6 0m3-4a4 4 0 1 0 0 8 4 4 0 0 0 0-8m5.58 12.15c1.12.82 1.83 2.24 1.91 4.85H1.51c.08-2.6.79-4.03 1.9-4.85C4.66 11.75 6.5 11.5 9 11.5s4.35.26 5.58 1.15M9 10.5c-2.5 0-4.65.24-6.17 1.35C1.27 12.98.5 14.93.5 18v.5h17V18c0-3.07-.77-5.02-2.33-6.15-1.52-1.1-3.67-1.35-6.17-1.35" clip-rule="evenodd"/></svg>',
  cart: '<svg xmlns="http://www.w3.org/2000/svg" fill="none" class="icon icon-cart-empty" viewBox="0 0 40 40"><path fill="currentColor" fill-rule="evenodd" d="M15.75 11.8h-3.16l-.77 11.6a5 5 0 0 0 4.99 5.34h7.38a5 5 0 0 0 4.99-5.33L28.4 11.8zm0 1h-2.22l-.71 10.67a4 4 0 0 0 3.99 4.27h7.38a4 4 0 0 0 4-4.27l-.72-10.67h-2.22v.63a4.75 4.75 0 1 1-9.5 0zm8.5 0h-7.5v.63a3.75 3.75 0 1 0 7.5 0z"/></svg>',
  menu: '<svg xmlns="http://www.w3.org/2000/svg" fill="none" class="icon icon-hamburger" viewBox="0 0 18 16"><path fill="currentColor" d="M1 .5a.5.5 0 1 0 0 1h15.71a.5.5 0 0 0 0-1zM.5 8a.5.5 0 0 1 .5-.5h15.71a.5.5 0 0 1 0 1H1A.5.5 0 0 1 .5 8m0 7a.5.5 0 0 1 .5-.5h15.71a.5.5 0 0 1 0 1H1a.5.5 0 0 1-.5-.5"/></svg>',
};

/** snippets/card-product.liquid (standard card, square media, quick add "standard"). */
function dawnCard(p: FixtureProduct, section: string, eager: boolean, badgePosition: string): string {
  const badge = !p.available ? "Sold out" : p.compareAt ? "Sale" : "";
  const badgeSpan = (where: string) =>
    badge ? `<span id="${where}Badge-${section}-${p.id}" class="badge badge--bottom-left color-${badge === "Sale" ? "scheme-4" : "scheme-3"}">${badge}</span>` : "";
  const price = p.compareAt
    ? `<div class="price price--on-sale"><div class="price__container"><div class="price__sale"><span class="visually-hidden visually-hidden--inline">Regular price</span><span><s class="price-item price-item--regular">${money(p.compareAt)}</s></span><span class="visually-hidden visually-hidden--inline">Sale price</span><span class="price-item price-item--sale price-item--last">${money(p.price)}</span></div></div></div>`
    : `<div class="price${p.available ? "" : " price--sold-out"}"><div class="price__container"><div class="price__regular"><span class="visually-hidden visually-hidden--inline">Regular price</span><span class="price-item price-item--regular">${money(p.price)}</span></div></div></div>`;
  const quickAdd = p.available
    ? `<div class="quick-add no-js-hidden"><modal-opener data-modal="#QuickAdd-${p.id}"><button id="${section}-${p.id}-submit" type="submit" name="add" class="quick-add__submit button button--full-width button--secondary" aria-haspopup="dialog" aria-labelledby="${section}-${p.id}-submit title-${section}-${p.id}" data-product-url="/products/${p.handle}">Choose options</button></modal-opener>
<quick-add-modal id="QuickAdd-${p.id}" class="quick-add-modal"><div role="dialog" aria-label="Choose options for ${esc(p.title)}" aria-modal="true" class="quick-add-modal__content global-settings-popup" tabindex="-1"><button id="ModalClose-${p.id}" type="button" class="quick-add-modal__toggle" aria-label="Close"><span class="svg-wrapper"><svg xmlns="http://www.w3.org/2000/svg" fill="none" class="icon icon-close" viewBox="0 0 18 17"><path fill="currentColor" d="M.865 15.978a.5.5 0 0 0 .707.707l7.433-7.431 7.579 7.282a.501.501 0 0 0 .846-.37.5.5 0 0 0-.153-.351L9.712 8.546l7.417-7.416a.5.5 0 1 0-.707-.708L8.991 7.853 1.413.573a.5.5 0 1 0-.693.72l7.563 7.268z"/></svg></span></button><div id="QuickAddInfo-${p.id}" class="quick-add-modal__content-info"></div></div></quick-add-modal></div>`
    : "";
  return `<li class="grid__item scroll-trigger animate--slide-in" data-cascade style="--animation-order: 1;">
<div class="card-wrapper product-card-wrapper underline-links-hover">
  <div class="card card--standard card--media" style="--ratio-percent: 100%;">
    <div class="card__inner color-scheme-2 gradient ratio" style="--ratio-percent: 100%;">
      <div class="card__media"><div class="media media--transparent media--hover-effect">
        <img src="${imageOf(p)}" alt="" class="motion-reduce"${eager ? "" : ' loading="lazy"'} width="600" height="600">
      </div></div>
      <div class="card__content">
        <div class="card__information"><h3 class="card__heading"><a href="/products/${p.handle}" id="StandardCardNoMediaLink-${section}-${p.id}" class="full-unstyled-link" aria-labelledby="StandardCardNoMediaLink-${section}-${p.id} NoMediaStandardBadge-${section}-${p.id}">${esc(p.title)}</a></h3></div>
        <div class="card__badge ${badgePosition}">${badgeSpan("NoMediaStandard")}</div>
      </div>
    </div>
    <div class="card__content">
      <div class="card__information">
        <h3 class="card__heading h5" id="title-${section}-${p.id}"><a href="/products/${p.handle}" id="CardLink-${section}-${p.id}" class="full-unstyled-link" aria-labelledby="CardLink-${section}-${p.id} Badge-${section}-${p.id}">${esc(p.title)}</a></h3>
        <div class="card-information"><span class="caption-large light"></span>${price}</div>
      </div>
      ${quickAdd}
      <div class="card__badge ${badgePosition}">${badgeSpan("")}</div>
    </div>
  </div>
</div>
</li>`;
}

const dawnGrid = (products: FixtureProduct[], section: string, badgePosition: string, id = "product-grid") =>
  `<ul id="${id}" data-id="${section}" class="grid product-grid grid--2-col-tablet-down grid--4-col-desktop" role="list">${products.map((p, i) => dawnCard(p, section, i < 4, badgePosition)).join("")}</ul>`;

/** sections/main-collection-product-grid.liquid: the part facets.js replaces (#ProductGridContainer). */
export function dawnCollectionSection(l: Listing, badgePosition = "bottom left"): string {
  const section = "template--main__product-grid";
  return `<div id="shopify-section-${section}" class="shopify-section section"><div class="section-${section}-padding gradient color-scheme-1">
<div id="ProductGridContainer"><div class="collection page-width">
<div class="loading-overlay gradient"></div>
${dawnGrid(listing(l), section, badgePosition)}
</div></div></div></div>`;
}

function dawnHeader(): string {
  return `<div id="shopify-section-sections--header__header" class="shopify-section shopify-section-group-header-group section-header">
<sticky-header data-sticky-type="on-scroll-up" class="header-wrapper color-scheme-1 gradient header-wrapper--border-bottom">
<header class="header header--middle-left header--mobile-center page-width header--has-menu header--has-account">
  <header-drawer data-breakpoint="tablet"><details id="Details-menu-drawer-container" class="menu-drawer-container"><summary class="header__icon header__icon--menu header__icon--summary link focus-inset" aria-label="Menu"><span>${DAWN_ICON.menu}</span></summary></details></header-drawer>
  <a href="/" class="header__heading-link link link--text focus-inset"><span class="h2">Fixture Shop</span></a>
  <nav class="header__inline-menu"><ul class="list-menu list-menu--inline" role="list">
    <li><a id="HeaderMenu-home" href="/" class="header__menu-item list-menu__item link link--text focus-inset"><span>Home</span></a></li>
    <li><a id="HeaderMenu-catalog" href="/collections/all" class="header__menu-item list-menu__item link link--text focus-inset"><span>Catalog</span></a></li>
    <li><a id="HeaderMenu-contact" href="/pages/contact" class="header__menu-item list-menu__item link link--text focus-inset"><span>Contact</span></a></li>
  </ul></nav>
  <div class="header__icons">
    <div class="desktop-localization-wrapper"></div>
    <details-modal class="header__search"><details><summary class="header__icon header__icon--search header__icon--summary link focus-inset modal__toggle" aria-haspopup="dialog" aria-label="Search"><span>${DAWN_ICON.search}</span></summary></details></details-modal>
    <a href="/account/login" class="header__icon header__icon--account link focus-inset small-hide"><span class="svg-wrapper">${DAWN_ICON.account}</span><span class="visually-hidden">Log in</span></a>
    <a href="/cart" class="header__icon header__icon--cart link focus-inset" id="cart-icon-bubble"><span class="svg-wrapper">${DAWN_ICON.cart}</span><span class="visually-hidden">Cart</span></a>
  </div>
</header></sticky-header></div>`;
}

const DAWN_CSS = ["settings.css", "base.css", "component-card.css", "component-price.css", "quick-add.css", "component-facets.css", "component-search.css", "section-main-product.css", "component-list-menu.css", "component-menu-drawer.css", "header.css"];

function dawnLayout(title: string, template: string, main: string, o: PageOptions): string {
  return `<!doctype html><html class="js" lang="en"><head><meta charset="utf-8"><meta http-equiv="X-UA-Compatible" content="IE=edge"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="theme-color" content="">
<title>${title} – Fixture Shop</title><meta name="description" content="A fixture store with Dawn's own markup and CSS.">
<link rel="icon" href="data:,">
${DAWN_CSS.map((f) => `<link href="/cdn/theme/dawn/${f}" rel="stylesheet" type="text/css" media="all">`).join("\n")}
<script>window.Shopify = { shop: "fixture.myshopify.com", routes: { root: "/" }, currency: { active: "EUR", rate: "1.0" } };</script>
<script src="/cdn/theme/dawn/theme.js" defer="defer"></script>
</head><body class="gradient">
<a class="skip-to-content-link button visually-hidden" href="#MainContent">Skip to content</a>
${dawnHeader()}
<main id="MainContent" class="content-for-layout focus-none" role="main" tabindex="-1" data-template="${template}">${main}</main>
<footer class="footer color-scheme-1 gradient section-sections--footer-padding"><div class="footer__content-bottom page-width"><small class="copyright__content">© 2026, Fixture Shop</small></div></footer>
${o.embed}
</body></html>`;
}

export function dawnPage(page: FixturePage, o: PageOptions, l: Listing = {}): string {
  const badges = o.badgePosition ?? "bottom left";
  if (page === "home") {
    return dawnLayout(
      "Home",
      "index",
      `<div id="shopify-section-template--index__image_banner" class="shopify-section section"><div class="banner banner--medium banner--desktop-transparent"><div class="banner__content banner__content--middle-center page-width"><div class="banner__box content-container content-container--full-width-mobile color-scheme-1 gradient"><h2 class="banner__heading inline-richtext h0">New season</h2><div class="banner__buttons"><a href="/collections/all" class="button button--primary">Shop all</a></div></div></div></div></div>
<div id="shopify-section-template--index__featured_collection" class="shopify-section section"><div class="color-scheme-1 isolate gradient"><div class="collection section-template--index__featured_collection-padding"><div class="collection__title title-wrapper title-wrapper--no-top-margin page-width"><h2 class="title inline-richtext h2">Featured products</h2></div><slider-component class="slider-mobile-gutter page-width page-width-desktop">${dawnGrid(PRODUCTS.slice(0, 8), "template--index__featured_collection", badges, "Slider-template--index__featured_collection")}</slider-component></div></div></div>`,
      o,
    );
  }
  if (page === "collection") {
    return dawnLayout(
      "Catalog",
      "collection",
      `<div id="shopify-section-template--main__banner" class="shopify-section section"><div class="collection-hero color-scheme-1 gradient"><div class="collection-hero__inner page-width"><div class="collection-hero__text-wrapper"><h1 class="collection-hero__title"><span class="visually-hidden">Collection: </span>Catalog</h1></div></div></div></div>
${dawnCollectionSection(l, badges)}`,
      o,
    );
  }
  if (page === "search") {
    const section = "template--search__main";
    return dawnLayout(
      "Search: linen",
      "search",
      `<div id="shopify-section-${section}" class="shopify-section"><div class="template-search template-search--empty"><div class="template-search__header page-width"><h1 class="h2 center">Search results</h1></div>
<div class="template-search__results collection page-width" id="ProductGridContainer">${dawnGrid(searchResults(), section, badges)}</div></div></div>`,
      o,
    );
  }
  const p = PRODUCTS[0]!;
  return dawnLayout(p.title, "product", `${dawnMainProduct(p)}
<div id="shopify-section-template--product__related" class="shopify-section"><product-recommendations class="related-products page-width section-template--product__related-padding isolate" data-url="/recommendations/products?section_id=template--product__related&product_id=${p.id}&limit=4"><h2 class="related-products__heading inline-richtext h2">You may also like</h2>${dawnGrid(PRODUCTS.slice(1, 5), "template--product__related", badges)}</product-recommendations></div>`, o);
}

/** sections/main-product.liquid's product-info (the page's section, and what quick add puts in its modal). */
export function dawnMainProduct(p: FixtureProduct, quickAdd = false): string {
  const id = quickAdd ? `quickadd-template--product__main` : "template--product__main";
  return `<div id="shopify-section-${id}" class="shopify-section">
<product-info id="MainProduct-${id}" class="section-${id}-padding gradient color-scheme-1" data-section="${id}" data-product-id="${p.id}" data-update-url="true" data-url="/products/${p.handle}">
<div class="page-width"><div class="product product--large product--left product--stacked grid grid--1-col grid--2-col-tablet product--mobile-hide">
  <div class="grid__item product__media-wrapper"><div class="product__media-list"><div class="product__media media media--transparent" style="padding-top: 100%;"><img src="${imageOf(p)}" alt="${esc(p.title)}" width="600" height="600"></div></div></div>
  <div class="product__info-wrapper grid__item"><section id="ProductInfo-${id}" class="product__info-container">
    <div class="product__title"><h1>${esc(p.title)}</h1><a href="/products/${p.handle}" class="product__title"><h2 class="h1">${esc(p.title)}</h2></a></div>
    <div class="no-js-hidden" id="price-${id}" role="status"><div class="price price--large"><div class="price__container"><div class="price__regular"><span class="visually-hidden visually-hidden--inline">Regular price</span><span class="price-item price-item--regular">${money(p.price)}</span></div></div></div></div>
    <div><product-form class="product-form"><form method="post" action="/cart/add" id="product-form-${id}" class="form" novalidate="novalidate" data-type="add-to-cart-form"><input type="hidden" name="id" value="${p.variantId}" class="product-variant-id"><div class="product-form__buttons"><button id="ProductSubmitButton-${id}" type="submit" name="add" class="product-form__submit button button--full-width button--secondary"><span>Add to cart</span></button></div></form></product-form></div>
    <div class="product__description rte quick-add-hidden"><p>Soft, breathable and made to last.</p></div>
    ${quickAdd ? `<a href="/products/${p.handle}" class="link product__view-details animate-arrow">View full details</a>` : ""}
  </section></div>
</div></div></product-info></div>`;
}

// ------------------------------------------------------------------ Horizon 4.1.3

const HORIZON_ICON = {
  search: '<svg width="20" height="20" viewBox="0 0 20 20" fill="none" xmlns="http://www.w3.org/2000/svg"><path d="M18 18L14.5 14.5M16.5 9.25C16.5 13.25 13.25 16.5 9.25 16.5C5.25 16.5 2 13.25 2 9.25C2 5.25 5.25 2 9.25 2C13.25 2 16.5 5.25 16.5 9.25Z" stroke="currentColor" stroke-width="var(--icon-stroke-width)" stroke-linecap="round"/></svg>',
  account: '<svg class="account-button__icon" width="20" height="20" viewBox="0 0 20 20" fill="none" xmlns="http://www.w3.org/2000/svg"><path d="M10 10C12.2 10 14 8.2 14 6C14 3.8 12.2 2 10 2C7.8 2 6 3.8 6 6C6 8.2 7.8 10 10 10ZM10 10C6.1 10 3 12.7 3 16V18H17V16C17 12.7 13.9 10 10 10Z" stroke="currentColor" stroke-width="var(--icon-stroke-width)"/></svg>',
  cart: '<svg width="20" height="20" viewBox="0 0 20 20" fill="none" xmlns="http://www.w3.org/2000/svg"><path d="M4 6H16L15 18H5L4 6ZM7 6V5C7 3.3 8.3 2 10 2C11.7 2 13 3.3 13 5V6" stroke="currentColor" stroke-width="var(--icon-stroke-width)"/></svg>',
  menu: '<svg width="20" height="20" viewBox="0 0 20 20" fill="none" xmlns="http://www.w3.org/2000/svg"><path d="M2 5H18M2 10H18M2 15H18" stroke="currentColor" stroke-width="var(--icon-stroke-width)" stroke-linecap="round"/></svg>',
  close: '<svg width="20" height="20" viewBox="0 0 20 20" fill="none" xmlns="http://www.w3.org/2000/svg"><path d="M4 4L16 16M16 4L4 16" stroke="currentColor" stroke-width="var(--icon-stroke-width)" stroke-linecap="round"/></svg>',
  add: '<svg width="20" height="20" viewBox="0 0 20 20" fill="none" xmlns="http://www.w3.org/2000/svg"><path d="M10 4V16M4 10H16" stroke="currentColor" stroke-width="var(--icon-stroke-width)" stroke-linecap="round"/></svg>',
};

/** blocks/_product-card.liquid → snippets/product-card.liquid with its default blocks (gallery with badges and quick add, title, price); quick add on, on phones too. */
function horizonCard(p: FixtureProduct, block: string, i: number, o: PageOptions): string {
  const badge = !p.available ? "Sold out" : p.compareAt ? "Sale" : "";
  const position = o.badgePosition ?? "top-right";
  const badges = badge
    ? `<div class="product-badges product-badges--${position}" style="--badge-border-radius: 40px; --badge-font-family: var(--font-body--family); --badge-font-weight: var(--font-body--weight); --badge-text-transform: none;"><div class="product-badges__badge product-badges__badge--rectangle color-custom-badge-${badge === "Sale" ? "sale" : "sold-out"}">${badge}</div></div>`
    : "";
  const quickAdd = p.available
    ? `<quick-add-component class="quick-add custom-color-quick-add" ref="quickAdd" data-product-title="${esc(p.title)}" data-product-id="${p.id}" data-quick-add-button="choose" data-product-options-count="2" data-uses-selling-plans="false" data-renders-both-buttons=""><button class="button quick-add__button quick-add__button--choose add-to-cart-button" type="button" name="add" on:click="quick-add-component/handleClick"><span aria-hidden="true" class="svg-wrapper add-to-cart-icon">${HORIZON_ICON.add}</span>Choose</button></quick-add-component>`
    : "";
  const price = p.compareAt
    ? `<span class="price-item__group price"><span class="visually-hidden">Sale price&nbsp;</span>${money(p.price)}</span><span class="price-item__group price-item--regular compare-at-price"><span class="visually-hidden">Regular price&nbsp;</span>${money(p.compareAt)}</span>`
    : `<span class="price-item__group price"><span class="visually-hidden">Regular price&nbsp;</span>${money(p.price)}</span>`;
  return `<li id="${p.id}" class="product-grid__item product-grid__item--${i}" data-product-id="${p.id}" ref="cards[]">
<product-card class="product-card size-style" style="--size-style-width: 100%;--size-style-height: auto;" data-product-id="${p.id}" id="product-card-${block}" view-event-payload="${payload(p, "collection")}">
  <a id="link-${block}-${p.id}" href="/products/${p.handle}" class="product-card__link" ref="productCardLink" aria-label="${esc(p.title)}"></a>
  <div class="product-card__content layout-panel-flex layout-panel-flex--column product-grid__card spacing-style border-style gap-style" style="--border-width: 1px; --border-style: none; --border-color: rgb(var(--color-border-rgb) / 1.0); --border-radius: 0px; --flex-direction: column; --flex-wrap: nowrap; --flex-wrap-mobile: wrap; --horizontal-alignment: flex-start; --vertical-alignment: flex-start; --padding-block-start: 0px; --padding-block-end: 0px; --padding-inline-start: 0px; --padding-inline-end: 0px; --product-card-gap: 4px; --quick-add-display: flex; --quick-add-mobile-display: flex; --quick-add-mobile-opacity: 1;">
    <div ref="cardGallery" class="card-gallery card-gallery-${block} spacing-style border-style${badge ? ` card-gallery--badge-${position}` : ""}" style="--border-width: 1px; --border-style: none; --border-radius: 0px; --padding-block-start: 0px; --padding-block-end: 0px; --padding-inline-start: 0px; --padding-inline-end: 0px; --gallery-aspect-ratio: 0.8;" data-product-id="${p.id}" data-image-ratio="portrait">
      <a class="contents" ref="cardGalleryLink" href="/products/${p.handle}" aria-label="${esc(p.title)}"><div class="product-media-container media-fit product-media-container--image" style="--product-media-fit: cover;"><div class="product-media" style="--ratio: 1.0" data-media-id="${p.id}"><img src="${imageOf(p)}" alt="" width="600" height="600"${i < 4 ? "" : ' loading="lazy"'} class="product-media__image"></div></div></a>
      ${badges}${quickAdd}
    </div>
    <div class="product-grid-view-zoom-out--details"><h3 class="h4">${esc(p.title)}</h3></div>
    <a class="contents user-select-text" ref="productTitleLink" href="/products/${p.handle}"><div class="text-block text-block--align-left text-block--${block}-title rte text-left spacing-style" style="--width: 100%;"><p role="heading" aria-level="3">${esc(p.title)}</p></div></a>
    <product-price class="text-block text-block--align-left text-left spacing-style" data-product-id="${p.id}"><div ref="priceContainer">${price}</div></product-price>
    ${o.cardBlock ? `<div id="shopify-block-card-heart-${block}" class="shopify-app-block">${o.cardBlock(p)}</div>` : ""}
  </div>
</product-card>
</li>`;
}

/** snippets/product-grid.liquid's list (card size "medium": four columns on a wide page, two on phones). */
const horizonList = (products: FixtureProduct[], section: string, o: PageOptions) =>
  `<ul class="product-grid product-grid--${section} product-grid--grid" data-testid="product-grid" product-grid-view="default" ref="grid" role="list" data-last-page="2" data-product-card-size="medium" style="--mobile-columns: 2;">${products
    .map((p, i) => horizonCard(p, `${section}-${i}`, i, o))
    .join("")}</ul>`;

/** snippets/product-grid.liquid with its list, as main-collection.liquid and search-results.liquid render it. */
const horizonGrid = (products: FixtureProduct[], section: string, o: PageOptions) =>
  `<style>@media screen and (min-width: 750px) { .product-grid--${section}:is(.product-grid--grid) { --product-grid-columns-desktop: repeat(auto-fill, minmax(15rem, 1fr)); } }</style>
<div id="ResultsList" class="grid main-collection-grid spacing-style" style="--grid--margin--mobile: 0 var(--margin-lg); --grid-column--desktop: var(--centered); --grid-column--mobile: var(--centered); --padding-inline-start: 0px; --padding-inline-end: 0px;">
<div style="grid-column: var(--full-width); --product-grid-gap-mobile: 12px 12px; --product-grid-gap-desktop: 16px 16px; container-type: inline-size; container-name: product-grid;">
${horizonList(products, section, o)}
</div></div>`;

/** sections/main-collection.liquid: what section rendering answers and morph.js merges in (the shopify-section wrapper). */
export function horizonCollectionSection(l: Listing, o: PageOptions): string {
  const section = "template--main__main";
  return `<div id="shopify-section-${section}" class="shopify-section"><div class="section-background"></div>
<collection-component view-event-payload="${esc(JSON.stringify({ collection: { id: 1, handle: "all", productsCount: ALL_PRODUCTS.length } }))}"><results-list class="section product-grid-container" style="--padding-block-start: 8px; --padding-block-end: 8px;" section-id="${section}" infinite-scroll="true">
<div class="collection-wrapper grid gap-style">${horizonGrid(listing(l), "main", o)}</div>
</results-list></collection-component></div>`;
}

function horizonHeader(): string {
  return `<div id="shopify-section-sections--header__header_section" class="shopify-section shopify-section-group-header-group header-section">
<header-component id="header-component" class="header" data-menu-style="menu" data-sticky-state="inactive" style="--header-actions-font-size: 1rem;">
  <div class="header__underlay header__underlay-closed"></div><div class="header__underlay header__underlay-open"></div>
  <div class="header__row header__row--top color-scheme-1 section section--full-width-margin section--page-width" ref="headerRowTop" style="--border-bottom-width: 1px; --border-bottom-width-mobile: 1px; --border-bottom-color-mobile: var(--color-border);">
    <div class="header__columns spacing-style">
      <div class="header__column header__column--left" data-testid="header-top-left">
        <header-drawer class="header-drawer"><details class="menu-drawer-container"><summary class="header__icon header__icon--menu header__icon--summary" aria-label="Menu"><span class="svg-wrapper">${HORIZON_ICON.menu}</span></summary></details></header-drawer>
        <a class="header-logo" href="/"><span class="header-logo__text h3">Fixture Shop</span></a>
      </div>
      <div class="header__column header__column--center" data-testid="header-top-center">
        <nav class="header-menu" aria-label="Primary"><ul class="menu-list__list list-unstyled" role="list"><li class="menu-list__list-item"><a href="/" class="menu-list__link"><span class="menu-list__link-title">Home</span></a></li><li class="menu-list__list-item"><a href="/collections/all" class="menu-list__link"><span class="menu-list__link-title">Catalog</span></a></li></ul></nav>
      </div>
      <div class="header__column header__column--right" data-testid="header-top-right">
        <search-button class="search-action"><button class="button-unstyled header-actions__action" aria-label="Open search dialog"><span class="hidden">Search</span><span class="svg-wrapper">${HORIZON_ICON.search}</span></button></search-button>
        <header-actions>
          <div class="account-button header-actions__action color-custom-popover"><shopify-account class="account-button__button"><a href="/account/login" class="button-unstyled header-actions__action" aria-label="Log in"><span class="svg-wrapper">${HORIZON_ICON.account}</span></a></shopify-account></div>
          <a href="/cart" class="header-actions__action action__cart" aria-label="Cart"><cart-icon class="header-actions__cart-icon"><span class="hidden">Cart</span><span class="svg-wrapper">${HORIZON_ICON.cart}</span></cart-icon></a>
        </header-actions>
      </div>
    </div>
  </div>
</header-component></div>`;
}

/** snippets/quick-add-modal.liquid (rendered once in layout/theme.liquid). */
const HORIZON_QUICK_ADD_MODAL = `<quick-add-dialog id="quick-add-dialog"><dialog class="quick-add-modal dialog-modal color-custom-popover" ref="dialog" scroll-lock>
<button ref="closeButton" on:click="/closeDialog" class="button button-unstyled close-button quick-add-modal__close" aria-label="Close dialog">${HORIZON_ICON.close}</button>
<product-component id="quick-add-modal-content" class="quick-add-modal__content" view-event-trigger="dialog"></product-component>
</dialog></quick-add-dialog>`;

function horizonLayout(title: string, template: string, main: string, o: PageOptions): string {
  return `<!doctype html><html class="no-js" lang="en"><head><meta charset="utf-8"><meta http-equiv="X-UA-Compatible" content="IE=edge"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} – Fixture Shop</title><meta name="description" content="A fixture store with Horizon's own markup and CSS.">
<link rel="icon" href="data:,">
<link href="/cdn/theme/horizon/base.css" rel="stylesheet" type="text/css" media="all">
<link href="/cdn/theme/horizon/stylesheets.css" rel="stylesheet" type="text/css" media="all">
<link href="/cdn/theme/horizon/settings.css" rel="stylesheet" type="text/css" media="all">
<script type="importmap">{"imports":{"@theme/component":"/cdn/theme/horizon/component-stand-in.js","@theme/morph":"/cdn/theme/horizon/morph.js"}}</script>
<script>window.Shopify = { shop: "fixture.myshopify.com", routes: { root: "/" }, currency: { active: "EUR", rate: "1.0" } };</script>
<script src="/cdn/theme/horizon/theme.js" type="module"></script>
</head><body class="page-width-wide card-hover-effect-none">
${horizonHeader()}
<main id="MainContent" class="content-for-layout" role="main" data-page-transition-enabled="false" data-product-transition="false" data-template="${template}">${main}</main>
<footer class="footer section"><div class="section--page-width"><small>© 2026, Fixture Shop</small></div></footer>
${HORIZON_QUICK_ADD_MODAL}
${o.embed}
</body></html>`;
}

export function horizonPage(page: FixturePage, o: PageOptions, l: Listing = {}): string {
  if (page === "home") {
    const section = "template--index__product_list";
    return horizonLayout(
      "Home",
      "index",
      `<div id="shopify-section-template--index__hero" class="shopify-section"><div class="hero color-scheme-1" style="min-height: 360px; display: flex; align-items: center; justify-content: center; background: var(--color-background);"><div class="hero__content-wrapper section--page-width"><h2 class="h1">New season</h2><a class="button" href="/collections/all">Shop all</a></div></div></div>
<div id="shopify-section-${section}" class="shopify-section section-wrapper"><div class="section-background color-scheme-1"></div><div class="section product-grid-container color-scheme-1"><div class="collection-wrapper grid gap-style"><div class="section-resource-list__header" style="grid-column: var(--centered);"><h2 class="h3">Featured products</h2></div>${horizonGrid(PRODUCTS.slice(0, 8), "featured", o)}</div></div></div>`,
      o,
    );
  }
  if (page === "collection") {
    return horizonLayout(
      "Catalog",
      "collection",
      `<div id="shopify-section-template--main__collection_header" class="shopify-section"><div class="section section--page-width"><h1 class="h2">Catalog</h1></div></div>
${horizonCollectionSection(l, o)}`,
      o,
    );
  }
  if (page === "search") {
    return horizonLayout(
      "Search: linen",
      "search",
      `<div id="shopify-section-template--search__search_results" class="shopify-section"><results-list class="section product-grid-container" section-id="template--search__search_results"><div class="collection-wrapper grid gap-style"><div class="search-results__header" style="grid-column: var(--centered);"><h1 class="h2">Results for “linen”</h1></div>${horizonGrid(searchResults(), "search", o)}</div></results-list></div>`,
      o,
    );
  }
  const p = PRODUCTS[0]!;
  return horizonLayout(
    p.title,
    "product",
    `<div id="shopify-section-template--product__main" class="shopify-section"><div class="section-background"></div><div class="product-information section section--page-width spacing-style relative" data-testid="product-information">
<product-component class="product-information__grid product-information--media-left" data-product-grid-content view-event-payload="${payload(p, null)}">
<div class="product-information__media"><media-gallery class="media-gallery media-gallery--grid"><div class="product-media-container media-fit product-media-container--image"><div class="product-media"><img src="${imageOf(p)}" alt="${esc(p.title)}" width="600" height="600" class="product-media__image"></div></div></media-gallery></div>
<div class="product-details"><h1 class="h2">${esc(p.title)}</h1><product-price class="text-block"><div ref="priceContainer"><span class="price">${money(p.price)}</span></div></product-price>
<product-form-component class="product-form-buttons"><form method="post" action="/cart/add"><input type="hidden" name="id" value="${p.variantId}"><button type="submit" class="button add-to-cart-button">Add to cart</button></form></product-form-component>
<p>Soft, breathable and made to last. <a href="/products/${p.handle}#reviews">Reviews</a></p></div>
</product-component></div></div>
<div id="shopify-section-template--product__recommendations" class="shopify-section"><product-recommendations class="section product-recommendations section--page-width" data-product-id="${p.id}"><h2 class="h3">You may also like</h2>${horizonList(PRODUCTS.slice(1, 5), "recommendations", o)}</product-recommendations></div>`,
    o,
  );
}

export function themePage(theme: ThemeName, page: FixturePage, o: PageOptions, l: Listing = {}): string {
  return theme === "horizon" ? horizonPage(page, o, l) : dawnPage(page, o, l);
}
