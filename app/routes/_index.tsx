import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";

// Shopify opens the app at its application_url with ?shop=…&host=…: that is the embedded admin.
export const loader = ({ request }: LoaderFunctionArgs) => {
  const url = new URL(request.url);
  if (url.searchParams.has("shop")) throw redirect(`/app?${url.searchParams.toString()}`);
  return null;
};

export const meta: MetaFunction = () => [
  { title: "Wishlist — save-to-wishlist for your shop" },
  { name: "description", content: "Hosted wishlists and a save-to-wishlist button for Shopify stores." },
];

export default function Index() {
  return (
    <main style={{ fontFamily: "system-ui, sans-serif", maxWidth: 640, margin: "4rem auto", padding: "0 1rem", lineHeight: 1.5 }}>
      <h1>Wishlist</h1>
      <p>
        Hosted wishlists and a save-to-wishlist button for your shop. Shoppers save products to lists they can share;
        friends and family mark gifts as purchased.
      </p>
      <p>
        API: <a href="/api/v1/">/api/v1/</a> · Health: <a href="/api/v1/health">/api/v1/health</a>
      </p>
    </main>
  );
}
