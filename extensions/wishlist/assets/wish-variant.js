// Product block: keeps the save button on the variant the shopper picked, so the saved
// item carries that variant's price, image and variant_id (checkout metadata).
// Themes differ in how they announce a variant change: Dawn and most others fire
// `change` on the product form's input[name="id"] and rewrite `?variant=` in the URL;
// some dispatch `variant:change`. All are watched; each only leads to a lookup.
(function () {
  function variantsOf(button) {
    try {
      return JSON.parse(button.getAttribute("data-wish-variants") || "[]");
    } catch (e) {
      return [];
    }
  }

  function apply(id) {
    if (!id) return;
    document.querySelectorAll("[data-wish][data-wish-variants]").forEach(function (button) {
      var variant = variantsOf(button).filter(function (v) {
        return String(v.id) === String(id);
      })[0];
      if (!variant) return; // another product's button (quick view, recommendations)
      var metadata = {};
      try {
        metadata = JSON.parse(button.getAttribute("data-metadata") || "{}") || {};
      } catch (e) {
        metadata = {};
      }
      metadata.variant_id = variant.id;
      if (!metadata.quantity) metadata.quantity = 1;
      button.setAttribute("data-metadata", JSON.stringify(metadata));
      if (typeof variant.price === "number") button.setAttribute("data-price", String(variant.price));
      if (variant.image) button.setAttribute("data-image-url", variant.image);
    });
  }

  function fromUrl() {
    var match = /[?&]variant=(\d+)/.exec(location.search);
    return match && match[1];
  }

  // Themes rewrite ?variant= after their own handler, some only after fetching the
  // re-rendered section: watch the URL for a few seconds after a change, no longer.
  var watching = 0;
  function later() {
    var before = location.search;
    var checks = 0;
    clearInterval(watching);
    watching = setInterval(function () {
      if (location.search !== before) {
        clearInterval(watching);
        apply(fromUrl());
      } else if (++checks >= 20) clearInterval(watching);
    }, 150);
  }

  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target && target.name === "id" && target.value) apply(target.value);
    later();
  });
  document.addEventListener("variant:change", function (event) {
    var detail = event.detail || {};
    apply((detail.variant && detail.variant.id) || detail.variantId || detail.id);
  });
  window.addEventListener("popstate", function () {
    apply(fromUrl());
  });
  apply(fromUrl());
})();
