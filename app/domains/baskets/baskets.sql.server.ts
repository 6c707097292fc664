// The baskets' hot read: a share page's accent colour.
import type { BasketConfig } from "~/db.server";
import { exec, one, statement } from "~/db/sql.server";

// The partner's newest basket configuration, as POST /widget/init picks it (key-config.server.ts).
const BASKET_COLOR = statement<Pick<BasketConfig, "primaryColor">>(
  "share_page_basket_color",
  `SELECT "primaryColor" FROM "BasketConfig" WHERE "partnerId" = $1 ORDER BY "createdAt" DESC, "id" DESC LIMIT 1`,
);

/** The partner's newest basket configuration's colour; undefined without one. */
export const newestBasketColor = (partnerId: number) => exec(one(BASKET_COLOR, partnerId));
