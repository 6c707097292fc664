// The small pages behind the links of alert e-mails (confirm, unsubscribe):
// a sentence and one button that posts, so a link scanner's GET changes
// nothing; the answer of the post says what happened. No sign-in needed:
// the signed token in the address is the authority.
import { Form } from "@remix-run/react";

export interface AlertLinkPageProps {
  lang: "de" | "en";
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
