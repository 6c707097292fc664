// Text for a Liquid response (Content-Type: application/liquid). Shopify
// renders the body as Liquid before the browser sees it, so anything that is
// not ours (list names, product titles, URLs) could carry `{{ … }}` or
// `{% … %}` and run in the storefront (shopify.dev/docs/apps/build/security/
// app-security-checks/app-proxy-liquid-injection). Every such value is HTML-
// escaped and its braces become character references: no `{{` or `{%` can form,
// and the browser still shows `{` and `}`.

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "{": "&#123;",
  "}": "&#125;",
  "%": "&#37;",
};

/** `value` as inert text for HTML content or a double-quoted attribute of a Liquid response. */
export function liquidSafe(value: string | number): string {
  return String(value).replace(/[&<>"'{}%]/g, (c) => ENTITIES[c]!);
}

/** Whether a finished body could start a Liquid tag or output anywhere but where the template meant to. */
export function hasLiquidMarkup(text: string): boolean {
  return /\{\{|\{%/.test(text);
}
