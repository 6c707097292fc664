// The share page `/{lang}/list/{token}` (SPEC 4.3, README "Share pages and
// link previews"). Server-rendered and complete without JavaScript: the
// purchased toggle is a plain form post to this route's action, enhanced
// into a fetcher when scripts run. Data and rules: app/domains/lists/share-page.server.ts.
import { json, redirect, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaDescriptor, type MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, useActionData, useFetcher, useLoaderData, useParams, useRouteError } from "@remix-run/react";
import { useEffect, useState } from "react";
import { markPurchasedFromPage, sharePage, type ShareItem, type SharePage } from "~/domains/lists/share-page.server";
import { isShareLang, shareTexts, type ShareLang } from "~/domains/lists/share-texts";
import { previewTags } from "~/domains/previews/preview-tags";
import { ApiError, badRequest } from "~/lib/api/errors";
import styles from "~/styles/share.css?url";

const langOf = (value: string | undefined): ShareLang => (value === "de" ? "de" : "en");

// root.tsx sets <html lang> from this, also on the 404 page.
export const handle = { lang: (params: Record<string, string | undefined>) => langOf(params.lang) };

export const links = () => [{ rel: "stylesheet", href: styles }];

function notFound(lang: ShareLang): never {
  throw json({ lang }, { status: 404, headers: { "Cache-Control": "no-store", "X-Robots-Tag": "noindex" } });
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  if (!isShareLang(params.lang)) notFound("en");
  const lang = params.lang;
  const reveal = new URL(request.url).searchParams.get("reveal") === "1";
  try {
    const { page, setCookie } = await sharePage({ request, context, token: params.token, lang, reveal });
    const headers: Record<string, string> = { "Cache-Control": "private, no-store" };
    if (setCookie) headers["Set-Cookie"] = setCookie;
    return json(page, { headers });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) notFound(lang);
    throw err;
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (!isShareLang(params.lang)) notFound("en");
  const url = new URL(request.url);
  const form = await request.formData().catch(() => null);
  const enhanced = form?.get("enhanced") === "1";
  try {
    if (!form) throw badRequest("invalid_input", "Send the form's fields");
    const purchased = form.get("purchased");
    if (purchased !== "true" && purchased !== "false") throw badRequest("invalid_input", "purchased must be true or false");
    const itemId = form.get("itemId");
    const result = await markPurchasedFromPage(params.token, typeof itemId === "string" ? itemId : undefined, purchased === "true");
    // Without JavaScript: back to the page (post/redirect/get), keeping ?reveal.
    return enhanced ? json(result) : redirect(`${url.pathname}${url.search}`, 303);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    // A plain form post lands on the localized 404 page; the fetcher shows its own message.
    if (!enhanced && err.status === 404) notFound(params.lang);
    return json(err.body(), { status: err.status });
  }
}

export const headers: HeadersFunction = ({ loaderHeaders, errorHeaders }) => {
  const from = errorHeaders ?? loaderHeaders;
  const out = new Headers();
  for (const name of ["Cache-Control", "Set-Cookie", "X-Robots-Tag"]) {
    const value = from.get(name);
    if (value) out.set(name, value);
  }
  return out;
};

export const meta: MetaFunction<typeof loader> = ({ data, params }) => {
  const t = shareTexts(langOf(params.lang));
  if (!data) return [{ title: `${t.notFoundTitle} · ${t.siteName}` }, { name: "robots", content: "noindex" }];
  const p = data.preview;
  const tags: MetaDescriptor[] = [
    { title: `${p.title} · ${p.siteName}` },
    { name: "description", content: p.description },
    { tagName: "link", rel: "canonical", href: p.url },
    ...p.alternates.map((a) => ({ tagName: "link", rel: "alternate", hrefLang: a.hrefLang, href: a.href })),
    ...previewTags(p),
  ];
  return tags;
};

function LanguageSwitch({ page }: { page: SharePage }) {
  const t = shareTexts(page.lang);
  return (
    <nav aria-label={t.languages} className="share-langs">
      <ul>
        {(["de", "en"] as const).map((l) => (
          <li key={l}>
            <a href={`/${l}/list/${encodeURIComponent(page.token)}`} hrefLang={l} lang={l} aria-current={l === page.lang ? "page" : undefined}>
              {l === "de" ? "Deutsch" : "English"}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function PurchasedToggle({ page, item, action }: { page: SharePage; item: ShareItem; action: string }) {
  const t = shareTexts(page.lang);
  const fetcher = useFetcher<{ ok?: boolean; error?: string }>();
  // Rendered only after hydration, so the server's HTML stays a plain form post.
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  const pending = fetcher.formData?.get("purchased");
  const purchased = pending ? pending === "true" : item.purchased === true;
  const failed = fetcher.state === "idle" && fetcher.data?.error;
  return (
    <fetcher.Form method="post" action={action} className="share-toggle">
      <input type="hidden" name="itemId" value={item.itemId} />
      <input type="hidden" name="purchased" value={purchased ? "false" : "true"} />
      {enhanced ? <input type="hidden" name="enhanced" value="1" /> : null}
      {purchased ? <span className="share-badge">{t.purchased}</span> : null}
      <button type="submit" className={purchased ? "share-button secondary" : "share-button"} aria-label={`${purchased ? t.unmark : t.markPurchased}: ${item.title}`}>
        {purchased ? t.unmark : t.markPurchased}
      </button>
      {failed ? <p role="alert" className="share-error">{t.saveFailed}</p> : null}
    </fetcher.Form>
  );
}

export default function ShareListPage() {
  const page = useLoaderData<typeof loader>();
  // A plain form post that failed renders the page again with the action's error.
  const actionData = useActionData<typeof action>();
  const t = shareTexts(page.lang);
  const base = `/${page.lang}/list/${encodeURIComponent(page.token)}`;
  const action = page.spoiler === "revealed" ? `${base}?reveal=1` : base;
  return (
    <div className="share">
      <header className="share-header">
        <p className="share-site">{t.siteName}</p>
        <LanguageSwitch page={page} />
      </header>
      <main className="share-main">
        <section aria-labelledby="list-name" className="share-intro">
          <h1 id="list-name">{page.list.name}</h1>
          <p className="share-owner">
            {page.list.ownerAvatar ? <img src={page.list.ownerAvatar} alt={t.ownerAvatar(page.list.ownerName)} width={40} height={40} /> : null}
            <span>{t.byOwner(page.list.ownerName)}</span>
          </p>
          {page.list.occasionTitle ? (
            <p className="share-occasion">
              <span className="share-label">{t.occasion}: </span>
              {page.list.occasionTitle}
            </p>
          ) : null}
          {page.list.description ? <p className="share-description">{page.list.description}</p> : null}
          {page.spoiler === "hidden" ? (
            <p className="share-spoiler" role="note">
              {t.spoilerHidden} <a href={`${base}?reveal=1`}>{t.spoilerShow}</a>
            </p>
          ) : page.spoiler === "revealed" ? (
            <p className="share-spoiler" role="note">
              {t.spoilerRevealed} <a href={base}>{t.spoilerHide}</a>
            </p>
          ) : null}
        </section>
        {typeof actionData === "object" && actionData !== null && "error" in actionData ? (
          <p role="alert" className="share-error">
            {t.saveFailed}
          </p>
        ) : null}
        <section aria-labelledby="items-heading">
          <h2 id="items-heading">
            {t.items} <span className="share-count">({t.wishes(page.list.itemCount)})</span>
          </h2>
          {page.items.length === 0 ? <p>{t.empty}</p> : null}
          <ul className="share-items">
            {page.items.map((item) => (
              <li key={item.itemId} className={item.purchased ? "share-item is-purchased" : "share-item"}>
                {item.imageUrl ? <img src={item.imageUrl} alt="" width={120} height={120} loading="lazy" /> : <div className="share-noimage" aria-hidden="true" />}
                <div className="share-item-body">
                  <h3>{item.title}</h3>
                  {item.price ? (
                    <p className="share-price">
                      <span className="visually-hidden">{t.price}: </span>
                      {item.price}
                    </p>
                  ) : null}
                  {item.priority ? <p className="share-priority">{t.priority(item.priority)}</p> : null}
                  {item.productUrl ? (
                    <p>
                      <a href={item.productUrl} rel="noopener nofollow ugc" target="_blank">
                        {t.viewShort}
                        <span className="visually-hidden">: {item.title}</span>
                      </a>
                    </p>
                  ) : null}
                  {item.purchased !== null ? <PurchasedToggle page={page} item={item} action={action} /> : null}
                </div>
              </li>
            ))}
          </ul>
        </section>
      </main>
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const params = useParams();
  const t = shareTexts(langOf(params.lang));
  const missing = isRouteErrorResponse(error) && error.status === 404;
  return (
    <div className="share">
      <main className="share-main share-notfound">
        <h1>{missing ? t.notFoundTitle : t.saveFailed}</h1>
        {missing ? <p>{t.notFoundText}</p> : null}
      </main>
    </div>
  );
}
