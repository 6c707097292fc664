// POST /{lang}/account/settings: the account settings of "My lists"
// (app/hosted-pages/my-lists/account-settings.tsx): display name, password,
// e-mail address, account deletion. Reads the first-party wish_user cookie
// and calls the identity provider's domain functions (PUT /auth/user's and
// the account deletion). Without scripts a post is answered with a redirect
// back to My lists naming the outcome; a fetcher (`enhanced=1`) gets it as data.
import { isLang } from "~/i18n/lang";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { siteSession } from "~/domains/identity/site-session.server";
import { updateUser } from "~/domains/identity/account.server";
import { deleteAccount } from "~/flows/account-deletion.server";
import { ApiError, badRequest, unauthorized } from "~/lib/api/errors";
import { clientAddress } from "~/lib/api/client-address";
import { clearedCookie, readCookie, setCookie, SITE_COOKIE } from "~/http/cookies.server";
import type { SettingsDone, SettingsResult } from "~/hosted-pages/my-lists/account-settings";

const forms = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("display-name"), display_name: z.string().max(1000).default("") }),
  z.object({ intent: z.literal("change-password"), current_password: z.string().max(1024).default(""), password: z.string().max(1024).default("") }),
  z.object({ intent: z.literal("change-email"), email: z.string().max(1000).default(""), current_password: z.string().max(1024).default("") }),
  z.object({ intent: z.literal("delete-account"), confirm: z.literal("yes", { message: "confirm_required" }) }),
]);

export function loader({ params }: LoaderFunctionArgs) {
  // Nothing to show here: the settings live on My lists.
  const lang = params.lang === "de" ? "de" : "en";
  return new Response(null, { status: 303, headers: { Location: `/${lang}/lists#account-settings`, "Cache-Control": "no-store" } });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  if (!isLang(params.lang)) throw json({ lang: "en" }, { status: 404 });
  const lang = params.lang;
  const raw = await request.formData().catch(() => null);
  const fields: Record<string, string> = {};
  raw?.forEach((value, name) => {
    if (typeof value === "string") fields[name] ??= value;
  });
  const enhanced = fields.enhanced === "1";
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  const site = await siteSession(readCookie(request, SITE_COOKIE));
  if (site?.renewed) headers.set("Set-Cookie", setCookie(SITE_COOKIE, site.renewed));
  const intent = fields.intent ?? "";
  let result: SettingsResult;
  try {
    if (!site) throw unauthorized("Not signed in");
    const parsed = forms.safeParse(fields);
    if (!parsed.success) throw badRequest(parsed.error.issues[0]?.path[0] === "confirm" ? "confirm_required" : "invalid_input");
    const form = parsed.data;
    const identity = site.identity;
    let done: SettingsDone;
    switch (form.intent) {
      case "display-name":
        await updateUser(identity, { data: { display_name: form.display_name } }, clientAddress(context));
        done = "name-saved";
        break;
      case "change-password":
        await updateUser(identity, { password: form.password, current_password: form.current_password }, clientAddress(context));
        done = "password-changed";
        break;
      case "change-email":
        await updateUser(identity, { email: form.email, current_password: form.current_password, lang }, clientAddress(context));
        done = "email-pending";
        break;
      case "delete-account":
        await deleteAccount(identity.userId);
        headers.set("Set-Cookie", clearedCookie(SITE_COOKIE));
        done = "account-deleted";
        break;
    }
    result = { ok: true, done, form: intent };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (enhanced) return json<SettingsResult>({ ok: false, error: err.code, form: intent }, { status: err.status, headers });
    result = { ok: false, error: err.code, form: intent };
  }
  if (enhanced) return json<SettingsResult>(result, { headers });
  // Without scripts: post/redirect/get, back to the settings with what happened.
  const next = new URLSearchParams(result.ok ? { account: result.done } : { account_error: result.error, account_form: intent });
  headers.set("Location", `/${lang}/lists?${next}#${result.ok && result.done === "account-deleted" ? "account-deleted" : "account-settings"}`);
  return new Response(null, { status: 303, headers });
}
