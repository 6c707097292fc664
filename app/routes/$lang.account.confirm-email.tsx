// /{lang}/account/confirm-email: the new address's confirmation link (`#token=…`) (docs/identity.md "Account basics").
// The token never reaches this route: it is in the fragment, and the page's
// script hands it to POST /api/v1/auth/verify when the shopper presses the button.
import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { accountTexts, isAccountLang } from "~/domains/identity/account-texts";
import { ACCOUNT_PAGE_HEADERS as HEADERS, accountPageHeaders, accountPageLinks, accountPageMeta, ConfirmEmailPage } from "~/hosted-pages/account-pages";

export const links = accountPageLinks;
export const headers = accountPageHeaders;
export const handle = { lang: (params: Record<string, string | undefined>) => (params.lang === "de" ? "de" : "en") };

export function loader({ params }: LoaderFunctionArgs) {
  if (!isAccountLang(params.lang)) throw json({ lang: "en" }, { status: 404, headers: HEADERS });
  return json({ lang: params.lang }, { headers: HEADERS });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => accountPageMeta(accountTexts(data?.lang ?? "en").confirmTitle);

export default function AccountLink() {
  const { lang } = useLoaderData<typeof loader>();
  return <ConfirmEmailPage lang={lang} />;
}
