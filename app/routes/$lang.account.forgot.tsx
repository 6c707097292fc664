// /{lang}/account/forgot: "Forgot password?" (docs/identity.md "Account
// basics"). The form posts here; the answer is the same whether or not the
// address has an account (POST /auth/recover's domain function).
import { json, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { recover } from "~/domains/identity/account.server";
import { accountTexts } from "~/i18n/account";
import { ApiError } from "~/lib/api/errors";
import { clientAddress } from "~/lib/api/client-address";
import {
  ACCOUNT_PAGE_HEADERS as HEADERS,
  accountLangOf,
  accountPageHandle,
  accountPageHeaders,
  accountPageLinks,
  accountPageLoader,
  accountPageMeta,
  ForgotPasswordPage,
  type ForgotAnswer,
} from "~/hosted-pages/account-pages";

export const links = accountPageLinks;
export const headers = accountPageHeaders;
export const handle = accountPageHandle;
export const loader = accountPageLoader;

export async function action({ request, params, context }: ActionFunctionArgs) {
  const lang = accountLangOf(params);
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
