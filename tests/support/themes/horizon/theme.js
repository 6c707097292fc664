// Stand-in for the parts of Horizon 4.1.3's JavaScript the fixture needs, doing what they do to
// the page: view events from cards as they intersect (view-event-elements.js with
// view-event-trigger="intersect"), quick add (quick-add.js: the product page's details morphed
// into the dialog's product-component, then showModal), the dialog's Close (dialog.js
// closeDialog), filtering and sorting (facets.js → section-renderer.js: the section morphed in
// place from a Section Rendering API answer) and infinite scroll (paginated-list.js: the next
// page's cards appended to the grid).
import { morph, MORPH_OPTIONS } from "@theme/morph";

const view = (el) => {
  const data = JSON.parse(el.getAttribute("view-event-payload"));
  const ev = new Event("shopify:product:view", { bubbles: true });
  Object.assign(ev, data);
  el.dispatchEvent(ev);
};
const seen = new WeakSet();
const io = new IntersectionObserver((entries) => {
  for (const e of entries) {
    if (e.isIntersecting && !seen.has(e.target)) {
      seen.add(e.target);
      view(e.target);
    }
  }
});
const watchCards = (root) => root.querySelectorAll("product-card[view-event-payload]").forEach((c) => io.observe(c));
watchCards(document);

const parse = (html) => new DOMParser().parseFromString(html, "text/html");

document.addEventListener("click", async (ev) => {
  const choose = ev.target.closest(".quick-add__button--choose");
  if (choose) {
    const card = choose.closest("product-card");
    const url = card.querySelector("a.product-card__link").getAttribute("href");
    const page = parse(await (await fetch(url)).text());
    const source = page.querySelector(".product-information product-component");
    const content = document.getElementById("quick-add-modal-content");
    const grid = document.createElement("div");
    grid.innerHTML = source.innerHTML;
    content.setAttribute("view-event-payload", source.getAttribute("view-event-payload"));
    morph(content, grid);
    const dialog = content.closest("dialog");
    dialog.showModal();
    view(content);
    return;
  }
  if (ev.target.closest('[on\\:click="/closeDialog"]')) ev.target.closest("dialog").close();
});

window.fixtureTheme = {
  /** facets.js: the collection section re-rendered for a filtered or sorted address, morphed in. */
  async render(search) {
    const section = document.querySelector("results-list").closest(".shopify-section");
    const id = section.id.replace("shopify-section-", "");
    const html = await (await fetch(`${location.pathname}?${search}&section_id=${id}`)).text();
    const fresh = parse(html).getElementById(section.id);
    morph(section, fresh, MORPH_OPTIONS);
    watchCards(section);
    history.replaceState({}, "", `${location.pathname}?${search}`);
  },
  /** paginated-list.js: the next page's cards appended to the grid. */
  async more(search) {
    const page = parse(await (await fetch(`${location.pathname}?${search}`)).text());
    const grid = document.querySelector('[ref="grid"]');
    const cards = page.querySelector('[ref="grid"]').querySelectorAll(':scope > [ref="cards[]"]');
    grid.append(...cards);
    watchCards(grid);
  },
};
