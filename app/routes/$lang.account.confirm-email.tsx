// /{lang}/account/confirm-email: the new address's confirmation link (`#token=…`) (docs/identity.md "Account basics").
// The token never reaches this route: it is in the fragment, and the page's
// script hands it to POST /api/v1/auth/verify when the shopper presses the button.
import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { accountTexts } from "~/i18n/account";
import { accountPageHandle, accountPageHeaders, accountPageLinks, accountPageLoader, accountPageMeta, ConfirmEmailPage } from "~/hosted-pages/account-pages";

export const links = accountPageLinks;
export const headers = accountPageHeaders;
export const handle = accountPageHandle;
export const loader = accountPageLoader;

export const meta: MetaFunction<typeof loader> = ({ data }) => accountPageMeta(accountTexts(data?.lang ?? "en").confirmTitle);

export default function AccountLink() {
  const { lang } = useLoaderData<typeof loader>();
  return <ConfirmEmailPage lang={lang} />;
}
