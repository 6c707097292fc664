// The public shop page `/shops/{handle}` (SPEC 4.8 Shops, docs/api.md "Shops"):
// a published shop's name, description, featured curated lists and newest
// products, server-rendered and complete without JavaScript. The address the
// shop routes answer as `url` and `/sitemap-shops.xml` lists. Data: the same
// domain functions as the `/api/v1/shops/*` routes.
import { json, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, useLoaderData, useRouteError } from "@remix-run/react";
import { formatPrice } from "~/domains/lists/share-page.server";
import { shopFeaturedLists } from "~/domains/shops/shop-lists.server";
import { shopPage } from "~/domains/shops/shop-pages.server";
import { shopProducts } from "~/domains/shops/shop-products.server";
import { ApiError } from "~/lib/api/errors";
import designStyles from "~/hosted-pages/design.css?url";
import styles from "~/styles/share.css?url";

// share.css builds on the design tokens.
export const links = () => [
  { rel: "stylesheet", href: designStyles },
  { rel: "stylesheet", href: styles },
];

const PRODUCTS_SHOWN = 24;

type Product = Awaited<ReturnType<typeof shopProducts>>["products"][number];
const withPrice = (p: Product) => ({ ...p, price: formatPrice(p.price_minor, p.currency, "en") });

export async function loader({ params }: LoaderFunctionArgs) {
  try {
    const { shop } = await shopPage(params.handle);
    const [featured, products] = await Promise.all([
      shopFeaturedLists(params.handle, {}),
      shopProducts(params.handle, { limit: PRODUCTS_SHOWN }),
    ]);
    return json(
      {
        shop,
        lists: featured.lists.map((l) => ({ ...l, products: l.products.map(withPrice) })),
        products: products.products.map(withPrice),
      },
      { headers: { "Cache-Control": "public, max-age=60" } },
    );
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      throw json({ error: "shop_not_found" }, { status: 404, headers: { "Cache-Control": "no-store", "X-Robots-Tag": "noindex" } });
    }
    throw err;
  }
}

export const headers: HeadersFunction = ({ loaderHeaders, errorHeaders }) => {
  const from = errorHeaders ?? loaderHeaders;
  const out = new Headers();
  for (const name of ["Cache-Control", "X-Robots-Tag"]) {
    const value = from.get(name);
    if (value) out.set(name, value);
  }
  return out;
};

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  if (!data) return [{ title: "Shop not found" }, { name: "robots", content: "noindex" }];
  return [
    { title: data.shop.name },
    { name: "description", content: data.shop.description || data.shop.name },
    { tagName: "link", rel: "canonical", href: data.shop.url },
  ];
};

function ProductCard({ product }: { product: ReturnType<typeof withPrice> }) {
  return (
    <li className="share-item">
      {product.imageUrl ? <img src={product.imageUrl} alt="" width={96} height={96} loading="lazy" /> : <div className="share-noimage" aria-hidden="true" />}
      <div className="share-item-body">
        <h3>{product.url ? <a href={product.url} rel="noopener">{product.title}</a> : product.title}</h3>
        {product.brand ? <p>{product.brand}</p> : null}
        {product.price ? <p className="share-price">{product.price}</p> : null}
      </div>
    </li>
  );
}

export default function ShopPage() {
  const { shop, lists, products } = useLoaderData<typeof loader>();
  return (
    <div className="share">
      <header className="share-header">
        <p className="share-site">{shop.name}</p>
        <p className="share-count">{shop.follower_count} followers</p>
      </header>
      <main className="share-main">
        <section aria-labelledby="shop-name" className="share-intro">
          <h1 id="shop-name">{shop.name}</h1>
          {shop.description ? <p className="share-description">{shop.description}</p> : null}
        </section>
        {lists.map((list) => (
          <section key={list.slug} aria-labelledby={`list-${list.slug}`}>
            <h2 id={`list-${list.slug}`}>
              {list.title} <span className="share-count">({list.product_count})</span>
            </h2>
            {list.description ? <p className="share-description">{list.description}</p> : null}
            <ul className="share-items">
              {list.products.map((p) => (
                <ProductCard key={p.id} product={p} />
              ))}
            </ul>
          </section>
        ))}
        <section aria-labelledby="shop-products">
          <h2 id="shop-products">New in</h2>
          {products.length === 0 ? <p>No products yet.</p> : null}
          <ul className="share-items">
            {products.map((p) => (
              <ProductCard key={p.id} product={p} />
            ))}
          </ul>
        </section>
      </main>
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const missing = isRouteErrorResponse(error) && error.status === 404;
  return (
    <main className="share-main share-notfound">
      <h1>{missing ? "Shop not found" : "Something went wrong"}</h1>
      <p>{missing ? "This shop does not exist or is not published." : "Please try again later."}</p>
    </main>
  );
}
