// The basket drawer's own words (/dialog/basket: the shopper's saved products
// of this shop, to add to the cart), German and English. Sign-in and errors
// are the dialog's (dialog.ts).
import type { Catalogue, Lang } from "./lang";

const en = {
  titleBasket: "Your wishlist",
  basketEmpty: "You have not saved anything from this shop yet.",
  basketSignedOut: "Save products with the heart button and they appear here.",
  addToCart: "Add to cart",
  addAll: "Add all to cart",
  viewProduct: "View product",
  quantity: "Quantity",
};

export type DrawerTexts = typeof en;

const de: DrawerTexts = {
  titleBasket: "Deine Wunschliste",
  basketEmpty: "Du hast in diesem Shop noch nichts gemerkt.",
  basketSignedOut: "Merke dir Produkte mit dem Herz-Knopf – sie erscheinen dann hier.",
  addToCart: "In den Warenkorb",
  addAll: "Alle in den Warenkorb",
  viewProduct: "Zum Produkt",
  quantity: "Menge",
};

export const DRAWER_TEXTS: Catalogue<DrawerTexts> = { de, en };
export const drawerTexts = (lang: Lang): DrawerTexts => DRAWER_TEXTS[lang];
