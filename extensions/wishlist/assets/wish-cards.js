// App embed: a heart on every product card, and the header link's count.
// Cards come from Shopify's standard `shopify:product:view` events (the card
// dispatches them) and from the embed's card selector (themes without events).
// Hearts are [data-wish] buttons: widget.js binds them, marks saved ones from
// one request per page and opens the save dialog. Product data comes from the
// shop's own /products/<handle>.js when the shopper reaches for the heart.
// Hearts sit over the card (absolute): they take no space, so nothing shifts.
(function () {
  var tag = document.currentScript;
  if (!tag || window.WishCards) return;
  window.WishCards = true;
  var attr = function (name) {
    return tag.getAttribute("data-wish-cards-" + name) || "";
  };
  var hearts = attr("hearts") !== "false";
  var CARDS = attr("selector") || ".card-wrapper, product-card, .product-card";
  var LINK = 'a[href*="/products/"]';
  var label = attr("label") || "Add to wishlist";
  var locale = attr("locale");
  var position = attr("position") === "top-left" ? "top-left" : "top-right";
  var HANDLE = /\/products\/([^/?#]+)/;
  // /products/<handle>.js gives Shopify's amount × 100 in every currency; the API takes minor
  // units of the currency's own exponent (app/lib/money.ts; tests/unit/money.test.ts keeps these in step).
  var ZERO = "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX VND VUV XAF XOF XPF".split(" ");
  var THREE = "BHD IQD JOD KWD LYD OMR TND".split(" ");
  var minorPrice = function (cents, currency) {
    if (typeof cents !== "number") return cents;
    return ZERO.indexOf(currency) >= 0 ? Math.round(cents / 100) : THREE.indexOf(currency) >= 0 ? cents * 10 : cents;
  };
  var shopify = window.Shopify || {};
  var root = (shopify.routes && shopify.routes.root) || "/";
  var SVG =
    '<svg class="wish-icon" aria-hidden="true" focusable="false" viewBox="0 0 24 24" width="20" height="20"><path d="M12 20.5s-7.5-4.6-9.6-9.2C.9 7.9 3 4 6.8 4c2.2 0 3.6 1.2 4.2 2.5h2C13.6 5.2 15 4 17.2 4 21 4 23.1 7.9 21.6 11.3 19.5 15.9 12 20.5 12 20.5z"/></svg>';

  // The icon is parsed once and cloned per heart.
  var icon = document.createElement("span");
  icon.innerHTML = SVG;
  icon = icon.firstChild;

  function handleOf(card) {
    var link = card.matches(LINK) ? card : card.querySelector(LINK);
    var m = link && HANDLE.exec(link.getAttribute("href"));
    return m ? decodeURIComponent(m[1]) : "";
  }

  /** Hearts for [card, handle] pairs: all style reads first, then all writes (one style recalculation, not one per card). */
  function addHearts(pairs) {
    if (!hearts) return;
    var fresh = pairs.filter(function (p, i) {
      return p[0] && p[1] && !p[0].closest("[data-wish-card]") && !p[0].querySelector("[data-wish-card]") &&
        // A card inside another card of this batch: the outer one gets the heart.
        !pairs.some(function (q, j) { return j !== i && q[0] && q[1] && q[0] !== p[0] && q[0].contains(p[0]); });
    });
    var statics = fresh.map(function (p) {
      return getComputedStyle(p[0]).position === "static";
    });
    fresh.forEach(function (p, i) {
      if (!p[0].closest("[data-wish-card]")) addHeart(p[0], p[1], statics[i]); // the same card twice in a batch
    });
  }

  /** One heart per card; nested card elements (a wrapper and its card) get one between them. */
  function addHeart(card, handle, isStatic) {
    card.setAttribute("data-wish-card", handle);
    // A positioned card anchors the heart; `relative` without offsets moves nothing.
    if (isStatic) card.style.position = "relative";
    var heart = document.createElement("button");
    heart.type = "button";
    heart.className = "wish-heart wish-heart--" + position;
    heart.setAttribute("aria-label", label);
    heart.setAttribute("aria-pressed", "false");
    heart.setAttribute("data-wish", "");
    heart.setAttribute("data-url", location.origin + "/products/" + encodeURIComponent(handle));
    if (locale) heart.setAttribute("data-market", locale);
    heart.appendChild(icon.cloneNode(true));
    ["pointerenter", "focus", "touchstart"].forEach(function (type) {
      heart.addEventListener(type, function () {
        load(heart, handle);
      }, { passive: true });
    });
    card.appendChild(heart);
  }

  var loads = {};
  /** The product from the shop (`/products/<handle>.js`), written onto the heart as the save button's attributes. */
  function load(heart, handle) {
    if (!loads[handle]) {
      loads[handle] = fetch(root + "products/" + encodeURIComponent(handle) + ".js", { headers: { accept: "application/json" } })
        .then(function (res) {
          return res.ok ? res.json() : null;
        })
        .catch(function () {
          return null;
        });
    }
    return loads[handle].then(function (p) {
      heart.wishLoaded = true;
      if (!p) return;
      var variants = p.variants || [];
      var variant = variants.filter(function (v) { return v.available; })[0] || variants[0];
      var image = p.featured_image || "";
      var set = function (name, value) {
        if (value !== undefined && value !== null && value !== "") heart.setAttribute("data-" + name, String(value));
      };
      set("id", p.id);
      set("title", p.title);
      // Shopify's CDN answers protocol-relative (//cdn.shopify.com/…); storefronts are https.
      set("image-url", /^\/\//.test(image) ? "https:" + image : image);
      var currency = shopify.currency && shopify.currency.active;
      set("price", minorPrice(variant ? variant.price : p.price, currency));
      set("currency", currency);
      if (variant) set("metadata", JSON.stringify({ variant_id: variant.id, quantity: 1 }));
      heart.setAttribute("aria-label", label + ": " + p.title);
    });
  }

  // A click before the product arrived (a fast tap): hold it, then click again with the data.
  // The click's user activation lasts long enough for the dialog's popup.
  document.addEventListener("click", function (ev) {
    var heart = ev.target instanceof Element && ev.target.closest(".wish-heart");
    if (!heart || heart.wishLoaded) return;
    ev.preventDefault();
    ev.stopImmediatePropagation();
    load(heart, heart.closest("[data-wish-card]").getAttribute("data-wish-card")).then(function () {
      heart.click();
    });
  }, true);

  // Cards that announce themselves (Shopify's standard storefront events).
  document.addEventListener("shopify:product:view", function (ev) {
    var product = ev.product || (ev.detail && ev.detail.product);
    if (!product || !product.handle || ev.context === "page") return;
    var target = ev.target instanceof Element ? ev.target : null;
    addHearts([[target && (target.closest(CARDS) || target.parentElement), product.handle]]);
  });

  // Cards found by the selector, now and as they arrive (recommendations, filters, infinite scroll).
  function cardsIn(node, out) {
    if (!(node instanceof Element)) return out;
    if (node.matches(CARDS)) out.push([node, handleOf(node)]);
    node.querySelectorAll(CARDS).forEach(function (card) {
      out.push([card, handleOf(card)]);
    });
    return out;
  }
  function start() {
    addHearts(cardsIn(document.body, []));
    new MutationObserver(function (records) {
      var found = [];
      records.forEach(function (r) {
        r.addedNodes.forEach(function (n) {
          cardsIn(n, found);
        });
      });
      if (found.length) addHearts(found);
    }).observe(document.body, { childList: true, subtree: true });
    headerLink();
  }

  // The header link: placed in the theme's header icons, its count fed by widget.js.
  function headerLink() {
    var link = document.querySelector(".wish-header-link");
    if (!link) return;
    var slot = document.querySelector(attr("header") || ".header__icons");
    if (!slot) return;
    // A zero-width holder: the link hangs to the left of the icons without moving them.
    var holder = document.createElement("span");
    holder.className = "wish-header-slot";
    holder.appendChild(link);
    slot.insertBefore(holder, slot.firstChild);
    link.hidden = false;
    var count = link.querySelector(".wish-header-count");
    var watch = function () {
      window.WishWidget.on("count", function (n) {
        count.textContent = n > 0 ? String(n) : "";
        link.classList.toggle("wish-header-link--saved", n > 0);
      });
    };
    if (window.WishWidget) return watch();
    // The widget.js tag (snippets/wish-widget-script.liquid): the one carrying the public key.
    var script = document.querySelector("script[data-wish-key]");
    if (script) script.addEventListener("load", watch);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
