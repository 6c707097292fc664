// Install from outside the Shopify admin (/auth/login): the merchant names
// the store and is sent to Shopify to install or open the app.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AppProvider, Button, Card, FormLayout, Page, Text, TextField } from "@shopify/polaris";
import polarisTranslations from "@shopify/polaris/locales/en.json";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { useState } from "react";
import { shopify } from "~/shopify.server";
import { shopifyOffResponse } from "~/admin/shopify-off";
import { AdminErrorBoundary } from "~/admin/error-boundary";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: polarisStyles }];

/** The library's error codes as sentences. */
function loginErrors(result: { shop?: string } | undefined): { shop?: string } {
  if (result?.shop === "MISSING_SHOP") return { shop: "Enter your store's domain to log in." };
  if (result?.shop === "INVALID_SHOP") return { shop: "Enter a store domain like example.myshopify.com." };
  return {};
}

async function login(request: Request) {
  if (!shopify) throw shopifyOffResponse();
  // A GET without ?shop= shows the form; the library would report a missing shop.
  if (request.method === "GET" && !new URL(request.url).searchParams.has("shop")) return {};
  return loginErrors(await shopify.login(request));
}

export const loader = async ({ request }: LoaderFunctionArgs) => ({ errors: await login(request) });
export const action = async ({ request }: ActionFunctionArgs) => ({ errors: await login(request) });

export default function Login() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const errors = (actionData ?? loaderData).errors;
  const [shop, setShop] = useState("");
  return (
    <AppProvider i18n={polarisTranslations}>
      <Page narrowWidth>
        <Card>
          <Form method="post">
            <FormLayout>
              <Text variant="headingMd" as="h1">
                Log in
              </Text>
              <TextField
                type="text"
                name="shop"
                label="Shop domain"
                helpText="example.myshopify.com"
                value={shop}
                onChange={setShop}
                autoComplete="on"
                error={errors.shop}
              />
              <Button submit>Log in</Button>
            </FormLayout>
          </Form>
        </Card>
      </Page>
    </AppProvider>
  );
}

export const ErrorBoundary = AdminErrorBoundary;
