// "My lists" `/{lang}/lists` (docs/storefront.md "My lists page"): the signed-in
// shopper's lists and items on the service's own origin, where the
// `wish_user` cookie lives. Server-rendered and complete without JavaScript:
// every action is a plain form post to this route's action, answered with
// post/redirect/get; once scripts run, the list forms become fetchers (they
// send `enhanced=1` and get the result as data) and sign-in/out a Remix <Form>. Every
// action re-reads the cookie and goes through the API's domain functions,
// which check the caller's role on the list.
import { isLang, type Lang } from "~/i18n/lang";
import { json, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, useActionData, useLoaderData, useParams, useRouteError } from "@remix-run/react";
import { z } from "zod";
import { siteSession } from "~/domains/identity/site-session.server";
import { accountSettingsOf } from "~/domains/identity/account.server";
import { createList, deleteList, updateList } from "~/domains/lists/lists.server";
import { deleteItem, moveItem, updateItem } from "~/domains/lists/items.server";
import { inviteCollaborator, removeCollaborator } from "~/domains/lists/collaborators.server";
import { myListsView } from "~/pages/my-lists.server";
import { requestAlerts, setReminders, turnOffAlerts } from "~/domains/alerts/consent.server";
import { signInOnSite, signOutOnSite, signUpOnSite } from "~/flows/site-sign-in.server";
import { DONE_CODES, myListsTexts, type DoneCode } from "~/i18n/my-lists";
import type { Identity } from "~/domains/identity/identity.server";
import { ApiError, badRequest, unauthorized } from "~/lib/api/errors";
import { clientAddress } from "~/lib/api/client-address";
import { clearedCookie, readCookie, setCookie, SITE_COOKIE } from "~/http/cookies.server";
import { MyListsView, type ActionResult } from "~/hosted-pages/my-lists";
import designCss from "~/hosted-pages/design.css?url";
import listsCss from "~/styles/lists.css?url";

const langOf = (value: string | undefined): Lang => (isLang(value) ? value : "en");

// root.tsx sets <html lang> from this, also on the 404 page.
export const handle = { lang: (params: Record<string, string | undefined>) => langOf(params.lang) };

export const links = () => [
  { rel: "stylesheet", href: designCss },
  { rel: "stylesheet", href: listsCss },
];

const PRIVATE = "private, no-store";

function notFound(lang: Lang): never {
  throw json({ lang }, { status: 404, headers: { "Cache-Control": "no-store", "X-Robots-Tag": "noindex" } });
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  if (!isLang(params.lang)) notFound("en");
  const lang = params.lang;
  const url = new URL(request.url);
  const reveal = url.searchParams.get("reveal") === "1";
  const doneParam = url.searchParams.get("done");
  const done = DONE_CODES.find((code) => code === doneParam) ?? null;
  const confirmDelete = Number(url.searchParams.get("delete")) || null;
  const site = await siteSession(readCookie(request, SITE_COOKIE));
  const page = site ? await myListsView(site.identity, lang, reveal) : null;
  const settings = site ? await accountSettingsOf(site.identity.userId) : null;
  // The cookie names the address of its sign-in; a confirmed change of address shows at once.
  if (page && settings) page.account.email = settings.email;
  const headers: Record<string, string> = { "Cache-Control": PRIVATE };
  if (site?.renewed) headers["Set-Cookie"] = setCookie(SITE_COOKIE, site.renewed);
  return json({ lang, page, done, reveal, confirmDelete, settings }, { headers });
}

// ---------------------------------------------------------------- the action

const token = z.string().trim().min(1).max(100);
const itemId = z.string().regex(/^[1-9][0-9]{0,14}$/);
const credentials = { email: z.string().max(320).default(""), password: z.string().max(1024).default("") };
const listText = { name: z.string().trim().min(1).max(200), description: z.string().trim().max(2000).default("") };

const forms = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("sign-in"), ...credentials }),
  z.object({ intent: z.literal("sign-up"), ...credentials }),
  z.object({ intent: z.literal("sign-out") }),
  z.object({ intent: z.literal("create-list"), ...listText }),
  z.object({ intent: z.literal("update-list"), list: token, ...listText, occasion: z.string().max(100).default("") }),
  z.object({ intent: z.literal("share"), list: token }),
  z.object({ intent: z.literal("unshare"), list: token }),
  z.object({ intent: z.literal("delete-list"), list: token, confirm: z.literal("yes") }),
  z.object({ intent: z.literal("remove-item"), list: token, item: itemId }),
  z.object({ intent: z.literal("move-item"), list: token, item: itemId, target: token }),
  z.object({ intent: z.literal("set-priority"), list: token, item: itemId, priority: z.coerce.number().int().min(1).max(4) }),
  z.object({ intent: z.literal("invite"), list: token, friend: z.string().trim().min(1).max(100) }),
  z.object({ intent: z.literal("remove-collaborator"), list: token, user: z.string().min(1).max(100) }),
  z.object({ intent: z.literal("alerts-on"), email: z.string().trim().min(1).max(320), consent: z.literal("yes"), reminders: z.literal("yes").optional() }),
  z.object({ intent: z.literal("alerts-off") }),
  z.object({ intent: z.literal("reminders-on") }),
  z.object({ intent: z.literal("reminders-off") }),
]);
type PageForm = z.infer<typeof forms>;

// A field that fails its rule has a sentence of its own; anything else is "check what you entered".
const fieldCodes: Record<string, string> = {
  name: "missing_name",
  priority: "invalid_priority",
  friend: "missing_user",
  target: "missing_target",
  confirm: "confirm_required",
  email: "invalid_email",
  consent: "consent_required",
};

function parseForm(fields: Record<string, string>): PageForm {
  const parsed = forms.safeParse(fields);
  if (parsed.success) return parsed.data;
  const field = String(parsed.error.issues[0]?.path[0] ?? "");
  throw badRequest(fieldCodes[field] ?? "invalid_input", parsed.error.issues[0]?.message);
}

interface Outcome {
  done: DoneCode;
  /** Where the page goes afterwards: the id of an element (list heading, confirmation…) to scroll to and focus. */
  focus?: string;
  setCookie?: string;
}

function requireUser(identity: Identity | null): string {
  if (!identity) throw unauthorized("Not signed in");
  return identity.userId;
}

async function perform(form: PageForm, identity: Identity | null, lang: Lang, at: string | null, address: string | null): Promise<Outcome> {
  const listAnchor = at ? `list-${at}` : "your-lists";
  switch (form.intent) {
    case "sign-in":
      return { done: "signed-in", setCookie: setCookie(SITE_COOKIE, (await signInOnSite(identity, form, address)).site) };
    case "sign-up":
      return { done: "signed-up", setCookie: setCookie(SITE_COOKIE, (await signUpOnSite(identity, form)).site) };
    case "sign-out":
      await signOutOnSite(identity);
      return { done: "signed-out", setCookie: clearedCookie(SITE_COOKIE) };
    case "create-list": {
      const created = await createList(requireUser(identity), { name: form.name, description: form.description });
      return { done: "created", focus: `list-${created.list.db_id}` };
    }
    case "update-list":
      await updateList(form.list, requireUser(identity), { name: form.name, description: form.description, occasion_slug: form.occasion });
      return { done: "updated", focus: listAnchor };
    case "share":
    case "unshare":
      // The API's PUT /hosted/lists/{token}: owner only, and making a list public counts a share.
      await updateList(form.list, requireUser(identity), { share_public: form.intent === "share" });
      return { done: form.intent === "share" ? "shared" : "unshared", focus: at ? `share-${at}` : listAnchor };
    case "delete-list":
      await deleteList(form.list, requireUser(identity));
      return { done: "deleted", focus: "your-lists" };
    case "remove-item":
      await deleteItem(form.list, form.item, requireUser(identity));
      return { done: "removed", focus: listAnchor };
    case "move-item":
      await moveItem(form.list, form.item, requireUser(identity), { target: form.target }, { lang });
      return { done: "moved", focus: listAnchor };
    case "set-priority":
      await updateItem(form.list, form.item, requireUser(identity), { priority: form.priority }, { lang });
      return { done: "priority" };
    case "invite":
      await inviteCollaborator(form.list, requireUser(identity), form.friend);
      return { done: "invited" };
    case "remove-collaborator":
      await removeCollaborator(form.list, requireUser(identity), form.user);
      return { done: "uninvited", focus: at ? `collaborators-${at}` : listAnchor };
    case "alerts-on":
      // Double opt-in: a new address gets a confirmation link; alerts start once it is followed.
      // The reminder box is a choice of its own, unticked by default; it rides on the same consent.
      return {
        done: (await requestAlerts(requireUser(identity), form.email, lang, { reminders: form.reminders === "yes", clientAddress: address })) === "on" ? "alerts-on" : "alerts-pending",
        focus: "alerts",
      };
    case "alerts-off":
      await turnOffAlerts(requireUser(identity));
      return { done: "alerts-off", focus: "alerts" };
    case "reminders-on":
      if (!(await setReminders(requireUser(identity), true))) throw badRequest("alerts_required", "Turn on alerts first");
      return { done: "reminders-on", focus: "alerts" };
    case "reminders-off":
      await setReminders(requireUser(identity), false);
      return { done: "reminders-off", focus: "alerts" };
  }
}

/** Which form on the page an answer belongs to (its error is shown there). */
const formKey = (fields: Record<string, string>) => [fields.intent, fields.list, fields.item].filter(Boolean).join(":");

export async function action({ request, params, context }: ActionFunctionArgs) {
  if (!isLang(params.lang)) notFound("en");
  const lang = params.lang;
  const url = new URL(request.url);
  const raw = await request.formData().catch(() => null);
  const fields: Record<string, string> = {};
  raw?.forEach((value, name) => {
    if (typeof value === "string") fields[name] ??= value;
  });
  const enhanced = fields.enhanced === "1";
  // Where the page scrolls to afterwards; only ever an element id, never who owns what.
  const at = /^[1-9][0-9]{0,14}$/.test(fields.at ?? "") ? fields.at! : null;
  const headers = new Headers({ "Cache-Control": PRIVATE });
  const site = await siteSession(readCookie(request, SITE_COOKIE));
  if (site?.renewed) headers.set("Set-Cookie", setCookie(SITE_COOKIE, site.renewed));
  try {
    const outcome = await perform(parseForm(fields), site?.identity ?? null, lang, at, clientAddress(context));
    if (outcome.setCookie) headers.set("Set-Cookie", outcome.setCookie);
    const result: ActionResult = { ok: true, done: outcome.done, focus: outcome.focus ?? null };
    if (enhanced) return json(result, { headers });
    // Without JavaScript: post/redirect/get, to the part of the page the action was about.
    const next = new URLSearchParams({ done: outcome.done });
    if (url.searchParams.get("reveal") === "1") next.set("reveal", "1");
    headers.set("Location", `/${lang}/lists?${next}${outcome.focus ? `#${outcome.focus}` : ""}`);
    return new Response(null, { status: 303, headers });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const values = { email: fields.email ?? "", name: fields.name ?? "", description: fields.description ?? "" };
    const result: ActionResult = { ok: false, error: err.code, form: formKey(fields), at, values };
    return json(result, { status: err.status, headers });
  }
}

export const headers: HeadersFunction = ({ loaderHeaders, actionHeaders, errorHeaders }) => {
  const out = new Headers({ "Cache-Control": (errorHeaders ?? loaderHeaders).get("Cache-Control") ?? PRIVATE });
  // A sign-in's cookie (the action's) wins over a renewed one.
  const cookie = actionHeaders.get("Set-Cookie") ?? loaderHeaders.get("Set-Cookie") ?? errorHeaders?.get("Set-Cookie");
  if (cookie) out.set("Set-Cookie", cookie);
  const robots = errorHeaders?.get("X-Robots-Tag");
  if (robots) out.set("X-Robots-Tag", robots);
  return out;
};

export const meta: MetaFunction<typeof loader> = ({ params }) => {
  const t = myListsTexts(langOf(params.lang));
  return [{ title: `${t.title} · ${t.siteName}` }, { name: "robots", content: "noindex" }];
};

export default function MyListsPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionResult | undefined;
  return <MyListsView {...data} actionData={actionData ?? null} />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const t = myListsTexts(langOf(useParams().lang));
  const missing = isRouteErrorResponse(error) && error.status === 404;
  return (
    <main className="ml-main ml-notfound">
      <h1>{missing ? t.notFoundTitle : t.errors.failed}</h1>
      {missing ? <p>{t.notFoundText}</p> : null}
    </main>
  );
}
