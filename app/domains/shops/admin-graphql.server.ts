// The slice of the Shopify Admin API client the shop domain needs: the
// `admin.graphql` function of an authenticated admin or webhook context.
// Typed loosely so domain code and tests do not depend on the library's types.
import { log } from "~/lib/log.server";

export type AdminGraphql = (
  query: string,
  options?: { variables?: Record<string, unknown> },
) => Promise<{ json: () => Promise<unknown> }>;

export class AdminApiError extends Error {}

/** Runs a query and returns `data`; GraphQL errors become an AdminApiError. */
export async function adminQuery<T>(graphql: AdminGraphql, query: string, variables?: Record<string, unknown>): Promise<T> {
  const response = await graphql(query, variables ? { variables } : undefined);
  const body = (await response.json()) as { data?: T; errors?: unknown };
  if (body.errors || !body.data) {
    log.warn("shopify admin api error", { errors: JSON.stringify(body.errors ?? "no data") });
    throw new AdminApiError("The Shopify Admin API answered with an error");
  }
  return body.data;
}
