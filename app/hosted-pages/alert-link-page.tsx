// The small pages behind the links of alert e-mails (confirm, unsubscribe,
// an invalid Buy-now link): a sentence and one button that posts, so a link
// scanner's GET changes nothing; the answer of the post says what happened.
// No sign-in needed: the signed token in the address is the authority.
import { Form } from "@remix-run/react";
import { isLang, type Lang } from "~/i18n/lang";
import designCss from "~/hosted-pages/design.css?url";

export const alertLinkLinks = () => [{ rel: "stylesheet", href: designCss }];

/** Not cached, not indexed, and the token does not travel on as a referrer. */
export const ALERT_LINK_HEADERS = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex", "Referrer-Policy": "no-referrer" };

export const alertLinkMeta = (title: string) => [{ title }, { name: "robots", content: "noindex" }];

/** The link's token (empty when missing or longer than any we sign) and language (English unless `de`). */
export function alertLinkParams(request: Request): { token: string; lang: Lang; params: URLSearchParams } {
  const params = new URL(request.url).searchParams;
  const token = params.get("token") ?? "";
  return { token: token.length <= 200 ? token : "", lang: isLang(params.get("lang")) ? (params.get("lang") as Lang) : "en", params };
}

export interface AlertLinkPageProps {
  lang: Lang;
  title: string;
  text: string;
  /** The button's label while there is something to do; null once done (or for an invalid link). */
  button: string | null;
  tone: "neutral" | "success" | "error";
}

export function AlertLinkPage({ lang, title, text, button, tone }: AlertLinkPageProps) {
  return (
    <main lang={lang} style={{ maxWidth: "32rem", margin: "0 auto", padding: "var(--space-6) var(--space-4)" }}>
      <h1 style={{ fontSize: "var(--text-xl)" }}>{title}</h1>
      <p role={tone === "neutral" ? undefined : "status"} style={{ color: tone === "error" ? "var(--error)" : undefined }}>
        {text}
      </p>
      {button ? (
        <Form method="post" reloadDocument>
          <button type="submit" className="btn-primary">
            {button}
          </button>
        </Form>
      ) : null}
    </main>
  );
}

/** The way out to a page no installed shop speaks for: its address as a plain link, no redirect, no referrer. */
export function AlertLeavePage({ lang, title, text, label, url }: { lang: Lang; title: string; text: string; label: string; url: string }) {
  return (
    <main lang={lang} style={{ maxWidth: "32rem", margin: "0 auto", padding: "var(--space-6) var(--space-4)" }}>
      <h1 style={{ fontSize: "var(--text-xl)" }}>{title}</h1>
      <p>{text}</p>
      <p>
        {label}{" "}
        <a href={url} rel="noopener noreferrer nofollow" style={{ overflowWrap: "anywhere" }}>
          {url}
        </a>
      </p>
    </main>
  );
}
