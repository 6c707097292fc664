// App embed: a heart on every product card, the header link's count (docs/storefront.md
// "Hearts on product cards"). Never in a dialog or the main product section; a card holding
// the card block's heart is left alone. Placement is CSS only (no style reads); DOM writes
// are batched per animation frame. widget.js binds the [data-wish] hearts.
(function () {
  var tag = document.currentScript;
  if (!tag || window.WishCards) return;
  window.WishCards = true;
  var attr = function (name) {
    return tag.getAttribute("data-wish-cards-" + name) || "";
  };
  var hearts = attr("hearts") !== "false";
  var CARDS = attr("selector") || ".card-wrapper, product-card, .product-card";
  var NOT_CARDS = "dialog, [role=dialog], [aria-modal=true], quick-add-modal, quick-add-dialog, product-info, .product-information, [data-wish-no-hearts]";
  // Horizon's media box; elsewhere the card (Dawn's card__inner is a layer under the card's link).
  var SLOT = ".card-gallery";
  var PAYLOAD = "[view-event-payload]";
  var LINK = 'a[href*="/products/"]';
  var label = attr("label") || "Add {title} to wishlist";
  var plain = attr("label-plain") || "Add to wishlist";
  var locale = attr("locale");
  var position = /^top-(left|right)$/.test(attr("position")) ? attr("position") : "auto";
  var HANDLE = /\/products\/([^/?#.]+)/;
  // /products/<handle>.js: amount × 100 in every currency; the API takes minor units (app/lib/money.ts).
  var ZERO = "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX VND VUV XAF XOF XPF".split(" ");
  var THREE = "BHD IQD JOD KWD LYD OMR TND".split(" ");
  var minorPrice = function (cents, currency) {
    if (typeof cents !== "number") return cents;
    return ZERO.indexOf(currency) >= 0 ? Math.round(cents / 100) : THREE.indexOf(currency) >= 0 ? cents * 10 : cents;
  };
  var shopify = window.Shopify || {};
  var root = (shopify.routes && shopify.routes.root) || "/";
  // Parsed once, cloned per card.
  var proto = document.createElement("span");
  proto.innerHTML =
    '<button type="button" class="wish-heart wish-heart--' + position + '" aria-pressed="false" data-wish' + (locale ? ' data-market="' + locale.replace(/[^\w-]/g, "") + '"' : "") +
    '><svg class="wish-icon" aria-hidden="true" focusable="false" viewBox="0 0 24 24" width="20" height="20"><path d="M12 20.5s-7.5-4.6-9.6-9.2C.9 7.9 3 4 6.8 4c2.2 0 3.6 1.2 4.2 2.5h2C13.6 5.2 15 4 17.2 4 21 4 23.1 7.9 21.6 11.3 19.5 15.9 12 20.5 12 20.5z"/></svg></button>';
  proto = proto.firstChild;

  var named = function (title) {
    return title ? label.replace("{title}", title) : plain;
  };
  function handleOf(card) {
    var link = card.matches(LINK) ? card : card.querySelector(LINK);
    var m = link && HANDLE.exec(link.getAttribute("href"));
    return m ? decodeURIComponent(m[1]) : "";
  }
  // The product's name as the card shows it.
  function titleOf(card) {
    var links = card.querySelectorAll(LINK);
    for (var i = 0; i < links.length; i++) {
      var t = (links[i].getAttribute("aria-label") || links[i].textContent || "").trim();
      if (t) return t.replace(/\s+/g, " ");
    }
    var h = card.querySelector("h2, h3, h4");
    return h ? h.textContent.trim().replace(/\s+/g, " ") : "";
  }
  var eligible = function (el) {
    return !el.closest(NOT_CARDS);
  };

  // Cards for the next frame: [element, handle from an event or ""].
  var queue = [];
  var queued = false;
  function enqueue(card, handle) {
    if (!hearts || !card) return;
    queue.push([card, handle || ""]);
    if (!queued) {
      queued = true;
      requestAnimationFrame(flush);
    }
  }
  function flush() {
    queued = false;
    var batch = queue;
    queue = [];
    badgeCorner();
    batch.forEach(function (item) {
      var card = item[0];
      if (!card.isConnected || !eligible(card)) return;
      // Nested cards: the outer one.
      var outer = card.parentElement && card.parentElement.closest(CARDS);
      if (outer && eligible(outer)) return;
      var handle = handleOf(card) || item[1];
      if (!handle) return;
      var heart = card.querySelector(".wish-heart");
      if (heart && !heart.hasAttribute("data-wish-cards")) return; // the card block's
      if (heart && heart.getAttribute("data-wish-cards") === handle) return;
      if (heart) heart.remove(); // a re-render put another product here
      addHeart(card, handle);
    });
  }

  function addHeart(card, handle) {
    var slot = card.querySelector(SLOT) || card;
    slot.classList.add("wish-anchor");
    var heart = proto.cloneNode(true);
    heart.setAttribute("aria-label", named(titleOf(card)));
    heart.setAttribute("data-wish-cards", handle);
    heart.setAttribute("data-url", location.origin + "/products/" + encodeURIComponent(handle));
    slot.appendChild(heart);
  }

  // Badges top right: "auto" hearts go left (one class on <html>).
  var cornerSet = false;
  function badgeCorner() {
    if (cornerSet || position !== "auto") return;
    var badge = document.querySelector(".product-badges--top-right, .product-badges--top-left, .card__badge.top");
    if (!badge) return;
    cornerSet = true;
    if (badge.matches(".product-badges--top-right, .right")) document.documentElement.classList.add("wish-badges-right");
  }

  var loads = {};
  /** The product (`/products/<handle>.js`) as the save button's attributes. */
  function load(heart) {
    var handle = heart.getAttribute("data-wish-cards");
    if (!loads[handle]) {
      loads[handle] = fetch(root + "products/" + encodeURIComponent(handle) + ".js", { headers: { accept: "application/json" } })
        .then(function (res) { return res.ok ? res.json() : null; })
        .catch(function () { return null; });
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
      set("image-url", /^\/\//.test(image) ? "https:" + image : image);
      var currency = shopify.currency && shopify.currency.active;
      set("price", minorPrice(variant ? variant.price : p.price, currency));
      set("currency", currency);
      if (variant) set("metadata", JSON.stringify({ variant_id: variant.id, quantity: 1 }));
      heart.setAttribute("aria-label", named(p.title));
    });
  }
  var ours = function (ev) {
    return ev.target instanceof Element && ev.target.closest(".wish-heart[data-wish-cards]");
  };
  // Product data as the shopper reaches for a heart.
  ["pointerover", "focusin", "touchstart"].forEach(function (type) {
    document.addEventListener(type, function (ev) {
      var heart = ours(ev);
      if (heart && !heart.wishLoaded) load(heart);
    }, { passive: true });
  });
  // A click before the product arrived: held, then replayed (its activation still opens the popup).
  document.addEventListener("click", function (ev) {
    var heart = ours(ev);
    if (!heart || heart.wishLoaded) return;
    ev.preventDefault();
    ev.stopImmediatePropagation();
    load(heart).then(function () {
      heart.click();
    });
  }, true);

  // Shopify's view events, dispatched by the card itself.
  function viewed(el, product, context) {
    if (!product || !product.handle || context === "page" || context === "dialog") return;
    var card = el.closest(CARDS) || (el.querySelector(LINK) ? el : null);
    if (card) enqueue(card, product.handle);
  }
  document.addEventListener("shopify:product:view", function (ev) {
    var detail = ev.detail || {};
    if (ev.target instanceof Element) viewed(ev.target, ev.product || detail.product, ev.context || detail.context);
  });
  // View-event payloads read at once (intersect-triggered events fire before this script runs).
  function payloadCard(el) {
    try {
      var data = JSON.parse(el.getAttribute("view-event-payload"));
      if (data && data.product) viewed(el, data.product, data.context);
    } catch (e) {
      /* not JSON */
    }
  }
  function scan(node) {
    if (!(node instanceof Element) || node.hasAttribute("data-wish")) return;
    if (node.matches(CARDS)) enqueue(node);
    if (node.matches(PAYLOAD)) payloadCard(node);
    node.querySelectorAll(CARDS).forEach(function (card) { enqueue(card); });
    node.querySelectorAll(PAYLOAD).forEach(payloadCard);
  }
  function start() {
    scan(document.body);
    flush(); // now: before widget.js reads its buttons
    // Filters, sorting, "load more" re-render cards (innerHTML, or a morph dropping our heart).
    new MutationObserver(function (records) {
      records.forEach(function (r) {
        r.addedNodes.forEach(scan);
        r.removedNodes.forEach(function (n) {
          if (n instanceof Element && n.matches(".wish-heart") && r.target.isConnected) scan(r.target.closest(CARDS + "," + PAYLOAD));
        });
      });
    }).observe(document.body, { childList: true, subtree: true });
    headerLink();
  }

  // The header link (placed by the embed's inline script): its count.
  function headerLink() {
    var link = document.querySelector(".wish-header-link");
    if (!link || link.hidden) return;
    var count = link.querySelector(".wish-header-count");
    var watch = function () {
      window.WishWidget.on("count", function (n) {
        count.textContent = n > 0 ? String(n) : "";
        link.classList.toggle("wish-header-link--saved", n > 0);
      });
    };
    if (window.WishWidget) return watch();
    var script = document.querySelector("script[data-wish-key]");
    if (script) script.addEventListener("load", watch);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
