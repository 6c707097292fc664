import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useMatches, useRouteError } from "@remix-run/react";
import type { LinksFunction } from "@remix-run/node";
import { useNonce } from "~/lib/http/nonce";

type Params = Record<string, string | undefined>;
type LangSource = { lang?: unknown };

/**
 * The page language: from the deepest route that declares one, in its loader
 * data (`lang`) or its `handle.lang` (a string, or a function of the params
 * so that error pages know it too). Default "en".
 */
function usePageLang(): string {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const { data, handle, params } = matches[i]!;
    const fromData = (data as LangSource | undefined)?.lang;
    if (typeof fromData === "string") return fromData;
    const fromHandle = (handle as LangSource | undefined)?.lang;
    const lang = typeof fromHandle === "function" ? (fromHandle as (p: Params) => unknown)(params) : fromHandle;
    if (typeof lang === "string") return lang;
  }
  return "en";
}

/** Pages framed on other sites (the basket drawer) have no first-party storage, which scroll restoration needs. */
function useFramed(): boolean {
  return useMatches().some((m) => (m.handle as { framed?: boolean } | undefined)?.framed === true);
}

// Every page names its icon, so browsers do not ask for a favicon.ico the app does not have.
export const links: LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];


function pageAnalyticsToken(matches: ReturnType<typeof useMatches>): string | null {
  for (const match of [...matches].reverse()) {
    const token = (match.data as { analyticsToken?: unknown } | null | undefined)?.analyticsToken;
    if (typeof token === "string") return token;
  }
  return null;
}

/**
 * The embedded admin's App Bridge: the API key its layout route loaded (`handle.appBridge`), unless it
 * is the local preview. Shopify asks for app-bridge.js as the first script of the <head>, not async
 * (https://shopify.dev/docs/api/app-bridge-library), so it is rendered here rather than by AppProvider.
 */
function appBridgeKeyOf(matches: ReturnType<typeof useMatches>): string | null {
  for (const match of matches) {
    if (!(match.handle as { appBridge?: boolean } | undefined)?.appBridge) continue;
    const data = match.data as { apiKey?: unknown; preview?: unknown } | undefined;
    return typeof data?.apiKey === "string" && !data.preview ? data.apiKey : null;
  }
  return null;
}

export function Layout({ children }: { children: React.ReactNode }) {
  // Remix's inline scripts run under the page's CSP only with its nonce.
  const nonce = useNonce();
  const lang = usePageLang();
  const framed = useFramed();
  // A page with a partner's context (its route's loader signs the token for that partner) carries the
  // credential its analytics events need (POST /analytics/track); pages without one carry none.
  const matches = useMatches();
  const analyticsToken = pageAnalyticsToken(matches);
  const appBridgeKey = appBridgeKeyOf(matches);
  return (
    <html lang={lang}>
      <head>
        <meta charSet="utf-8" />
        {appBridgeKey !== null && <meta name="shopify-api-key" content={appBridgeKey} />}
        {appBridgeKey !== null && <script src="https://cdn.shopify.com/shopifycloud/app-bridge.js" />}
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {analyticsToken && <meta name="wish-analytics-token" content={analyticsToken} />}
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        {!framed && <ScrollRestoration nonce={nonce} />}
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

function describe(error: unknown): { title: string; text: string } {
  if (!isRouteErrorResponse(error)) return { title: "Something went wrong", text: "Please try again in a moment." };
  if (error.status === 404) return { title: "Page not found", text: "There is nothing at this address." };
  if (error.status === 405) return { title: "Method not allowed", text: "This page cannot be sent a form or data." };
  if (error.status < 500) return { title: "Bad request", text: "This request cannot be answered." };
  return { title: "Something went wrong", text: "Please try again in a moment." };
}

export function ErrorBoundary() {
  const { title, text } = describe(useRouteError());
  return (
    <main style={{ fontFamily: "system-ui, sans-serif", padding: "3rem", textAlign: "center" }}>
      <h1>{title}</h1>
      <p>{text}</p>
    </main>
  );
}
