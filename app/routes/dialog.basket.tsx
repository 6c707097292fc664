// The hosted basket drawer (SPEC 4.5, 4.7 {hosted_basket_url}), framed by
// basket-integration.js on the shop's page as /dialog/basket?config=bkt_…&locale=…
// (docs/storefront-protocol.md "Basket drawer"). The server renders the shell
// with the basket's colour; the widget token and the shopper's access token
// arrive by postMessage from the shop page, only from the token's origin.
import { json, type HeadersFunction, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { analyticsPageTokenOrNull } from "~/domains/analytics/page-token.server";
import { basketDrawer } from "~/domains/baskets/baskets.server";
import { FRAME_ANCESTORS_HEADER } from "~/lib/http/security-headers";
import { accentStyle } from "~/hosted-pages/accent";
import { ApiFailure, call, formatPrice, tell, widgetClaims } from "~/hosted-pages/client";
import { errorText, langOf, texts } from "~/i18n/dialog";
import { drawerTexts } from "~/i18n/drawer";
import { lineOf, uniqueSaved, type CartLine, type Saved } from "~/hosted-pages/basket-lines";
import designCss from "~/hosted-pages/design.css?url";
import dialogCss from "~/hosted-pages/dialog.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: designCss },
  { rel: "stylesheet", href: dialogCss },
];
export const meta: MetaFunction = () => [{ title: "Wishlist" }, { name: "robots", content: "noindex" }];
/** Framed on the shop's page (root.tsx leaves out what needs first-party storage). */
export const handle = { framed: true };

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const drawer = await basketDrawer(url.searchParams.get("config") ?? undefined);
  if (!drawer) throw new Response("Not found", { status: 404 });
  const { id, primaryColor } = drawer.basket;
  return json(
    {
      id,
      primaryColor: /^#[0-9a-f]{3,8}$/i.test(primaryColor ?? "") ? primaryColor : null,
      lang: langOf(url.searchParams.get("locale")),
      // The drawer's analytics events count for its basket's partner only (root.tsx writes the token into the page).
      analyticsToken: await analyticsPageTokenOrNull(drawer.partnerId),
    },
    { headers: { [FRAME_ANCESTORS_HEADER]: drawer.frameAncestors } },
  );
}

export const headers: HeadersFunction = ({ loaderHeaders }) => {
  const frameAncestors = loaderHeaders.get(FRAME_ANCESTORS_HEADER);
  return { "Cache-Control": "no-store", ...(frameAncestors ? { [FRAME_ANCESTORS_HEADER]: frameAncestors } : {}) };
};

type State = { name: "waiting" } | { name: "signed-out" } | { name: "list"; products: Saved[] } | { name: "error"; code: string };

export default function BasketDrawer() {
  const { id, primaryColor, lang } = useLoaderData<typeof loader>();
  const t = texts(lang);
  const d = drawerTexts(lang);
  const [state, setState] = useState<State>({ name: "waiting" });
  const shop = useRef<{ origin: string; token: string } | null>(null);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const data = event.data;
      if (event.source !== window.parent || data?.source !== "wish" || data.type !== "basket-init" || typeof data.token !== "string") return;
      // Only the page the widget token was minted for may hand over its session.
      const claims = widgetClaims(data.token);
      if (!claims || claims.origin !== event.origin) return;
      shop.current = { origin: claims.origin, token: data.token };
      // Counting the drawer's openings is analytics: only when the page says its visitor allowed it (docs/privacy.md).
      const analytics = typeof data.consent === "string" && data.consent.split(",").includes("analytics");
      void load(data.token, typeof data.accessToken === "string" ? data.accessToken : null, analytics);
    };
    const load = async (token: string, accessToken: string | null, analytics: boolean) => {
      if (analytics) void call(`/baskets/${id}/event`, { body: { type: "open" } }).catch(() => undefined);
      if (!accessToken) return setState({ name: "signed-out" });
      try {
        const { products } = await call<{ products: Saved[] }>("/widget/saved-products", { widgetToken: token, accessToken });
        setState({ name: "list", products: uniqueSaved(products) });
      } catch (err) {
        setState({ name: "error", code: err instanceof ApiFailure ? err.code : "network" });
      }
    };
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && close();
    window.addEventListener("message", onMessage);
    window.addEventListener("keydown", onKey);
    // The ready signal carries nothing, so any parent may hear it.
    window.parent.postMessage({ source: "wish", type: "basket-ready" }, "*");
    return () => {
      window.removeEventListener("message", onMessage);
      window.removeEventListener("keydown", onKey);
    };
  }, [id]);

  const close = () => shop.current && tell(window.parent, shop.current.origin, { type: "basket-close" });

  const checkout = async (lines: CartLine[]) => {
    if (!shop.current || lines.length === 0) return;
    await call(`/baskets/${id}/event`, { body: { type: "checkout_started", meta: { lines } } }).catch(() => undefined);
    tell(window.parent, shop.current.origin, { type: "cart", lines });
  };

  const products = state.name === "list" ? state.products : [];
  const lines = products.map(lineOf).filter((l): l is CartLine => l !== null);

  return (
    <main className="dialog" lang={lang} style={accentStyle(primaryColor)} aria-busy={state.name === "waiting"}>
      <div className="header">
        <h1>{d.titleBasket}</h1>
        <button type="button" className="btn-link" onClick={close}>
          {t.close}
        </button>
      </div>
      {state.name === "waiting" && <p>{t.loading}</p>}
      {state.name === "signed-out" && <p>{d.basketSignedOut}</p>}
      {state.name === "error" && (
        <p className="alert" role="alert">
          {errorText(t, lang, state.code)}
        </p>
      )}
      {state.name === "list" && products.length === 0 && <p>{d.basketEmpty}</p>}
      {products.length > 0 && (
        <>
          <ul className="items">
            {products.map((p) => {
              const line = lineOf(p);
              const price = formatPrice(p.price_minor, p.currency, lang);
              return (
                <li key={p.item_id}>
                  {p.imageUrl && /^https?:\/\//.test(p.imageUrl) ? <img src={p.imageUrl} alt="" width={72} height={72} /> : null}
                  <div className="info">
                    <strong>{p.title ?? p.url}</strong>
                    {price && <span>{price}</span>}
                    {line && (
                      <span className="muted">
                        {d.quantity}: {line.quantity}
                      </span>
                    )}
                    {line ? (
                      <button type="button" className="btn-primary" aria-label={`${d.addToCart}: ${p.title ?? p.url}`} onClick={() => void checkout([line])}>
                        {d.addToCart}
                      </button>
                    ) : (
                      p.url && /^https?:\/\//.test(p.url) && (
                        <a className="btn" href={p.url} target="_top" rel="noopener">
                          {d.viewProduct}
                        </a>
                      )
                    )}
                  </div>
                </li>
              );
            })}
          </ul>
          {lines.length > 1 && (
            <button type="button" className="btn-primary wide" onClick={() => void checkout(lines)}>
              {d.addAll}
            </button>
          )}
        </>
      )}
      <p className="footer">
        <a href={`/${lang}/lists`} target="_blank" rel="noopener">
          {t.viewMyLists}
        </a>
      </p>
    </main>
  );
}
