// What the visitor allowed, for widget.js and basket-integration.js (each
// bundles its own copy; docs/privacy.md). A save, the saved-state marks and the
// drawer are what the shopper asked for and need no consent; these purposes
// only decide what the hosted dialog and drawer may do beyond that (analytics
// events, remembering the last list). Page-wide: every widget instance shares them.
//
// On a Shopify storefront Shopify's Customer Privacy API answers (the
// merchant's settings, the visitor's region and choice combined): loaded with
// Shopify.loadFeatures, asked again on each `visitorConsentCollected` event.
// Elsewhere nothing is allowed until the page says so (data-wish-consent,
// init({consent}) or setConsent()).
import { tagAttr } from "./common";

const allowed = { analytics: false, preferences: false };
type Purpose = keyof typeof allowed;
const watchers: Array<() => void> = [];

/** The allowed purposes as the dialog's fragment names them, comma-separated ("" for none). */
export const granted = () => (Object.keys(allowed) as Purpose[]).filter((p) => allowed[p]).join();

/** Sets each purpose given as a boolean (`{analytics: true}`); the others stay. */
export function setConsent(c: unknown): void {
  const before = granted();
  for (const p in allowed) {
    const v = (c as Record<string, unknown> | null)?.[p];
    if (typeof v === "boolean") allowed[p as Purpose] = v;
  }
  if (granted() !== before) watchers.forEach((w) => w());
}

/** Calls `fn` whenever what is allowed changes. */
export const onConsent = (fn: () => void) => watchers.push(fn);

interface ShopifyPrivacy {
  customerPrivacy?: { analyticsProcessingAllowed(): boolean; preferencesProcessingAllowed(): boolean };
  loadFeatures?: (features: Array<{ name: string; version: string }>, cb: (error?: unknown) => void) => void;
}

/** Follows Shopify's Customer Privacy API where the page has one; else starts from data-wish-consent ("analytics,preferences"). */
export function watchConsent(): void {
  const tag = (tagAttr("consent") || "").split(/[\s,]+/);
  setConsent({ analytics: tag.includes("analytics"), preferences: tag.includes("preferences") });
  const shopify = (window as { Shopify?: ShopifyPrivacy }).Shopify;
  const read = () => {
    const api = shopify?.customerPrivacy;
    if (api) setConsent({ analytics: api.analyticsProcessingAllowed(), preferences: api.preferencesProcessingAllowed() });
  };
  if (shopify?.customerPrivacy) read();
  else shopify?.loadFeatures?.([{ name: "consent-tracking-api", version: "0.1" }], read);
  document.addEventListener("visitorConsentCollected", read);
}
