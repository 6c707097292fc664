// Everything a user has saved, across the lists they own.
import { db } from "~/db.server";
import { itemInclude } from "./items.server";
import { savedProduct } from "./serialize";
import { type Locale } from "~/domains/products/localization";


/** `POST /hosted/saved-products`: no domain filter. */
export async function savedProductsOfUser(userId: string, locale: Locale) {
  const items = await db.listItem.findMany({
    where: { wishlist: { ownerId: userId } },
    include: itemInclude,
    orderBy: [{ addedAt: "desc" }, { id: "desc" }],
  });
  return { products: items.map((i) => savedProduct(i, locale)) };
}
