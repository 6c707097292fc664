// Remix's hooks for admin pages rendered to HTML outside a router (tests/shopify/pages.test.ts,
// tests/shopify/revenue.test.ts): the page reads the loader's answer from `current.data`, forms and
// fetchers stay idle, the layout's language is `current.lang`; everything else of @remix-run/react is the real module. Use inside vi.mock:
//   const current = vi.hoisted(() => ({ data: undefined as unknown }));
//   vi.mock("@remix-run/react", async (original) => (await import("../support/remix-stand-in.ts")).remixStandIn(original, current));
import { createElement as h, type ReactNode } from "react";

export async function remixStandIn(original: () => Promise<unknown>, current: { data: unknown; lang?: "en" | "de" }) {
  const actual = (await original()) as Record<string, unknown>;
  return {
    ...actual,
    useLoaderData: () => current.data,
    useActionData: () => undefined,
    // The layout's answer (app.tsx): the admin's language, English unless a test sets `current.lang`.
    useRouteLoaderData: (id: string) => (id === "routes/app" ? { lang: current.lang ?? "en" } : undefined),
    useNavigation: () => ({ state: "idle" }),
    useFetcher: () => ({ state: "idle", data: undefined, submit: () => {} }),
    useSearchParams: () => [new URLSearchParams(), () => {}],
    Form: (props: { children?: ReactNode; method?: string }) => h("form", { method: props.method ?? "post" }, props.children),
    Link: (props: { to: string; children?: ReactNode }) => h("a", { href: props.to }, props.children),
  };
}
