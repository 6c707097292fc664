// The customer account page "Wishlist" (target customer-account.page.render):
// the signed-in customer's saved products of this shop, with add to cart,
// remove and share. Data from the app's API with the session token
// (docs/shopify.md "Customer accounts").
import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { APP_URL } from "./app-url";
import { formatPrice, wishlistApi, type WishlistProduct } from "./api";

export default async () => {
  render(<WishlistPage />, document.body);
};

type State = { status: "loading" } | { status: "failed" } | { status: "ready"; products: WishlistProduct[] };

function WishlistPage() {
  const { i18n, localization, sessionToken, toast } = shopify;
  const language = localization.language.value.isoCode;
  const lang = language.toLowerCase().startsWith("de") ? "de" : "en";
  const api = wishlistApi(APP_URL, () => sessionToken.get());
  const [state, setState] = useState<State>({ status: "loading" });
  const [removing, setRemoving] = useState<number | null>(null);
  const [sharing, setSharing] = useState(false);
  const [shareUrl, setShareUrl] = useState<string | null>(null);

  async function load() {
    setState({ status: "loading" });
    try {
      setState({ status: "ready", products: (await api.list(lang)).products });
    } catch {
      setState({ status: "failed" });
    }
  }

  async function remove(itemId: number) {
    setRemoving(itemId);
    try {
      await api.remove(itemId);
      setState((s) => (s.status === "ready" ? { status: "ready", products: s.products.filter((p) => p.item_id !== itemId) } : s));
      void toast.show(i18n.translate("removed"));
    } catch {
      void toast.show(i18n.translate("failed"));
    } finally {
      setRemoving(null);
    }
  }

  async function share() {
    setSharing(true);
    try {
      setShareUrl((await api.share(lang)).share_url);
    } catch {
      void toast.show(i18n.translate("failed"));
    } finally {
      setSharing(false);
    }
  }

  useEffect(() => {
    void load();
  }, []);

  const products = state.status === "ready" ? state.products : [];
  return (
    <s-page heading={i18n.translate("title")}>
      {products.length > 0 && (
        <s-button slot="primary-action" loading={sharing} onClick={() => void share()}>
          {i18n.translate("share")}
        </s-button>
      )}
      {shareUrl && (
        <s-banner tone="success" heading={i18n.translate("shared")}>
          <s-stack direction="inline" gap="base">
            <s-link href={shareUrl} target="_blank">
              {shareUrl}
            </s-link>
            <s-clipboard-item id="wishlist-share-url" text={shareUrl} />
            <s-button variant="secondary" command="--copy" commandFor="wishlist-share-url">
              {i18n.translate("copy")}
            </s-button>
          </s-stack>
        </s-banner>
      )}
      {state.status === "loading" && <s-spinner accessibilityLabel={i18n.translate("loading")} />}
      {state.status === "failed" && (
        <s-banner tone="critical" heading={i18n.translate("failed")}>
          <s-button variant="secondary" onClick={() => void load()}>
            {i18n.translate("retry")}
          </s-button>
        </s-banner>
      )}
      {state.status === "ready" && products.length === 0 && <s-paragraph>{i18n.translate("empty")}</s-paragraph>}
      <s-grid gridTemplateColumns="repeat(auto-fill, minmax(220px, 1fr))" gap="base">
        {products.map((product) => {
          const title = product.title ?? i18n.translate("untitled");
          const price = formatPrice(product.price_minor, product.currency, language);
          return (
            <s-section key={product.item_id}>
              <s-stack direction="block" gap="base">
                {product.imageUrl && <s-image src={product.imageUrl} alt={title} aspectRatio="1" objectFit="cover" />}
                <s-text type="strong">{title}</s-text>
                {price && <s-text color="subdued">{price}</s-text>}
              </s-stack>
              {product.cart_url ? (
                <s-button slot="primary-action" href={product.cart_url}>
                  {i18n.translate("addToCart")}
                </s-button>
              ) : (
                product.url && (
                  <s-button slot="primary-action" href={product.url}>
                    {i18n.translate("view")}
                  </s-button>
                )
              )}
              <s-button
                slot="secondary-actions"
                tone="critical"
                loading={removing === product.item_id}
                accessibilityLabel={i18n.translate("removeLabel", { title })}
                onClick={() => void remove(product.item_id)}
              >
                {i18n.translate("remove")}
              </s-button>
            </s-section>
          );
        })}
      </s-grid>
    </s-page>
  );
}
