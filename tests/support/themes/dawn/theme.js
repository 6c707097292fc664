// Stand-in for the parts of Dawn 15.4.1's JavaScript the fixture needs, doing what they do to
// the page: quick add (global.js ModalOpener/ModalDialog and quick-add.js: the card's
// quick-add-modal moved to <body>, the product page's product-info copied into it, opened), its Close button, filtering
// and sorting (facets.js renderProductGridContainer: #ProductGridContainer's innerHTML replaced
// from a Section Rendering API answer) and "load more" as Dawn-derived themes add it (the next
// page's grid items appended).
const parse = (html) => new DOMParser().parseFromString(html, "text/html");

// global.js ModalDialog: a modal moves itself to <body> when it connects (out of the card's
// transformed, animated grid item, whose transform would trap its position: fixed).
customElements.define(
  "quick-add-modal",
  class extends HTMLElement {
    connectedCallback() {
      if (this.moved) return;
      this.moved = true;
      document.body.appendChild(this);
    }
  },
);

document.addEventListener("click", async (ev) => {
  const opener = ev.target.closest("modal-opener [data-product-url]");
  if (opener) {
    const modal = document.querySelector(opener.closest("modal-opener").getAttribute("data-modal"));
    const page = parse(await (await fetch(opener.getAttribute("data-product-url"))).text());
    const info = page.querySelector("product-info");
    modal.querySelector('[id^="QuickAddInfo-"]').innerHTML = info.outerHTML;
    modal.setAttribute("open", "");
    document.body.classList.add("overflow-hidden");
    modal.querySelector('[role="dialog"]').focus();
    return;
  }
  const close = ev.target.closest(".quick-add-modal__toggle");
  if (close) {
    close.closest("quick-add-modal").removeAttribute("open");
    document.body.classList.remove("overflow-hidden");
  }
});

window.fixtureTheme = {
  /** facets.js renderProductGridContainer. */
  async render(search) {
    const section = document.getElementById("ProductGridContainer").closest(".shopify-section");
    const id = section.id.replace("shopify-section-", "");
    const html = await (await fetch(`${location.pathname}?${search}&section_id=${id}`)).text();
    document.getElementById("ProductGridContainer").innerHTML = parse(html).getElementById("ProductGridContainer").innerHTML;
    history.replaceState({}, "", `${location.pathname}?${search}`);
  },
  /** A "load more" button: the next page's grid items appended. */
  async more(search) {
    const page = parse(await (await fetch(`${location.pathname}?${search}`)).text());
    document.getElementById("product-grid").append(...page.getElementById("product-grid").children);
  },
};
