// /{lang}/account/forgot: "Forgot password?" (docs/identity.md "Account
// basics"). The form posts here; the answer is the same whether or not the
// address has an account (POST /auth/recover's domain function).
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { recover } from "~/domains/identity/account.server";
import { accountTexts, isAccountLang } from "~/domains/identity/account-texts";
import { ApiError } from "~/lib/api/errors";
import { clientAddress } from "~/lib/api/client-address";
import { ACCOUNT_PAGE_HEADERS as HEADERS, accountPageHeaders, accountPageLinks, accountPageMeta, ForgotPasswordPage, type ForgotAnswer } from "~/hosted-pages/account-pages";

export const links = accountPageLinks;
export const headers = accountPageHeaders;
export const handle = { lang: (params: Record<string, string | undefined>) => (params.lang === "de" ? "de" : "en") };

function langOf(params: Record<string, string | undefined>) {
  if (!isAccountLang(params.lang)) throw json({ lang: "en" }, { status: 404, headers: HEADERS });
  return params.lang;
}

export function loader({ params }: LoaderFunctionArgs) {
  return json({ lang: langOf(params) }, { headers: HEADERS });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const lang = langOf(params);
  const form = await request.formData().catch(() => null);
  const email = String(form?.get("email") ?? "").slice(0, 1000);
  try {
    await recover({ email, lang }, clientAddress(context));
    return json<ForgotAnswer>({ ok: true }, { headers: HEADERS });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return json<ForgotAnswer>({ ok: false, error: err.code, email }, { status: err.status, headers: HEADERS });
  }
}

export const meta: MetaFunction<typeof loader> = ({ data }) => accountPageMeta(accountTexts(data?.lang ?? "en").forgotTitle);

export default function Forgot() {
  const { lang } = useLoaderData<typeof loader>();
  return <ForgotPasswordPage lang={lang} />;
}
