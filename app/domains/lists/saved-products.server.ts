// Everything a user has saved, across the lists they own.
import { db } from "~/db.server";
import { savedProduct, type Locale } from "./serialize";

export const savedItemInclude = {
  product: {
    select: {
      id: true,
      canonicalUrl: true,
      brand: true,
      rating: true,
      reviewCount: true,
      productType: true,
      tags: true,
      localizations: true,
    },
  },
} as const;

/** `POST /hosted/saved-products`: no domain filter. */
export async function savedProductsOfUser(userId: string, locale: Locale) {
  const items = await db.listItem.findMany({
    where: { wishlist: { ownerId: userId } },
    include: savedItemInclude,
    orderBy: [{ addedAt: "desc" }, { id: "desc" }],
  });
  return { products: items.map((i) => savedProduct(i, locale)) };
}
