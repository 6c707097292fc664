// The one HTML escaper: a tagged template that escapes every interpolated
// value, so markup built by string (the share page, the link preview) cannot
// take text for markup. Already-safe markup passes as a SafeHtml value: the
// result of another `html` template, or `rawHtml` for markup that is made safe
// elsewhere (a JSON script body escaped for <script>). Arrays are joined, and
// null, undefined and false render as nothing, so conditionals and lists read
// as they would in JSX.

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text with the five characters that mean something in HTML (and in quoted attributes) escaped. */
export const escapeText = (value: string): string => value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/**
 * Text for a Liquid response (Shopify's app proxy, Content-Type application/liquid): Shopify renders
 * the body as Liquid before the browser sees it, so a value that is not ours could carry `{{ … }}` or
 * `{% … %}` and run in the storefront. Escaped as HTML, and its braces and percent signs become
 * character references: no `{{` or `{%` can form, and the browser still shows `{`, `}` and `%`.
 */
export const escapeLiquidText = (value: string): string => value.replace(/[&<>"'{}%]/g, (c) => ESCAPES[c] ?? `&#${c.charCodeAt(0)};`);

/** Markup that is safe to insert as it is. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue, escape: (text: string) => string): string {
  if (value instanceof SafeHtml) return value.value;
  if (value === null || value === undefined || value === false) return "";
  if (Array.isArray(value)) return value.map((v) => render(v, escape)).join("");
  return escape(String(value));
}

const template =
  (escape: (text: string) => string) =>
  (strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml => {
    let out = strings[0]!;
    for (let i = 0; i < values.length; i++) out += render(values[i]!, escape) + strings[i + 1]!;
    return new SafeHtml(out);
  };

/** `html\`<p>${text}</p>\``: the literal parts as written, every value escaped unless it is SafeHtml. */
export const html = template(escapeText);

/** The same for a Liquid response: every value escaped with escapeLiquidText (nested `liquid` results pass as they are). */
export const liquid = template(escapeLiquidText);

/** Markup the caller vouches for (e.g. JSON escaped for a script element). Never pass user input. */
export const rawHtml = (markup: string): SafeHtml => new SafeHtml(markup);
