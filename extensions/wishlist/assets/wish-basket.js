// App embed: starts the basket drawer (basket-integration.js, this extension's asset) with the
// shop's basket and Shopify's cart permalink, then shows the floating opener.
// Loaded deferred after basket-integration.js; waits for it if that is still loading.
(function () {
  var tag = document.currentScript;
  if (!tag) return;
  var config = {
    apiKey: tag.getAttribute("data-wish-basket-key"),
    configId: tag.getAttribute("data-wish-basket-config"),
    cartUrl: tag.getAttribute("data-wish-basket-cart-url"),
    locale: tag.getAttribute("data-wish-basket-locale") || undefined,
    shopifyCart: tag.hasAttribute("data-wish-basket-shopify-cart"),
  };

  function start() {
    if (!window.WishBasket || start.done) return;
    start.done = true;
    window.WishBasket.init(config).then(
      function () {
        // Openers stay hidden until the drawer can really open.
        document.querySelectorAll(".wish-basket-opener[hidden]").forEach(function (el) {
          el.hidden = false;
        });
      },
      function (err) {
        console.warn("Wishlist basket unavailable:", err && err.code);
      },
    );
  }

  if (window.WishBasket) return start();
  var script = document.querySelector("script[data-wish-basket-script]");
  if (script) script.addEventListener("load", start);
})();
