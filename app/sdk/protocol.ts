// Types shared by the shop-page scripts and the hosted pages
// (docs/storefront-protocol.md). Type-only: nothing here reaches a bundle.

/** The product the SDK hands the save dialog: SPEC 2.6's SaveProductInput. */
export interface DialogProduct {
  url: string;
  title?: string;
  description?: string;
  imageUrl?: string;
  price?: number;
  currency?: string;
  marketCode: string;
  offerId?: number;
  metadata?: Record<string, unknown>;
}
