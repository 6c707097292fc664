// /{lang}/account/reset: the recovery link's page (`#token=…`): a new password (docs/identity.md "Account basics").
// The token never reaches this route: it is in the fragment, and the page's
// script hands it to POST /api/v1/auth/verify when the shopper presses the button.
import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { accountTexts } from "~/i18n/account";
import { accountPageHandle, accountPageHeaders, accountPageLinks, accountPageLoader, accountPageMeta, ResetPasswordPage } from "~/hosted-pages/account-pages";

export const links = accountPageLinks;
export const headers = accountPageHeaders;
export const handle = accountPageHandle;
export const loader = accountPageLoader;

export const meta: MetaFunction<typeof loader> = ({ data }) => accountPageMeta(accountTexts(data?.lang ?? "en").resetTitle);

export default function AccountLink() {
  const { lang } = useLoaderData<typeof loader>();
  return <ResetPasswordPage lang={lang} />;
}
