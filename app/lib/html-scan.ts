// A linear-time HTML tag scanner for pages the service did not write.
// General-purpose parsers build a tree and repair it, and the ones checked
// here are super-linear on hostile markup: node-html-parser re-filters a
// parent's children for every text node (80,000 `x<br>` took two minutes) and
// rescans to the end for every unclosed `<!--`; htmlparser2 shifts its whole
// open-element stack on every opening tag. Reading product facts needs only
// tags, attributes and the text of raw-text elements, so this scanner walks
// the string once: every search starts where the previous one ended, there
// is no tree, no stack and no regular expression over the page.
import { TextNode } from "node-html-parser";

export interface ScanHandler {
  /** An opening tag; name and attribute names lower-case, values entity-decoded, the first of a repeated attribute kept. */
  open?(name: string, attrs: Map<string, string>): void;
  /** A closing tag. */
  close?(name: string): void;
  /** Raw text between tags (entities not decoded). */
  text?(raw: string): void;
  /** The undecoded content of a raw-text element (script, style, title, …), after its `open`. */
  rawText?(name: string, content: string): void;
}

// Elements whose content is text up to their closing tag, as browsers read it.
const RAW_TEXT = new Set(["script", "style", "title", "textarea", "xmp", "iframe", "noembed", "noframes", "noscript"]);

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 12 || c === 13;
const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** HTML character references decoded (node-html-parser's decoder, `he`, through its public TextNode). */
export function decodeEntities(raw: string): string {
  return raw.includes("&") ? new TextNode(raw).text : raw;
}

const closers = new Map([...RAW_TEXT].map((name) => [name, new RegExp(`</${name}`, "gi")]));

/** Index of the closing tag `</name` at or after `from`, ASCII case-insensitive; -1 when there is none. */
function closingTag(html: string, name: string, from: number): number {
  // A literal pattern: one forward search that stops at the first match.
  const closer = closers.get(name)!;
  closer.lastIndex = from;
  return closer.exec(html)?.index ?? -1;
}

/** Calls the handler for every tag and text run of `html`, in order, in time linear in its length. */
export function scanHtml(html: string, handler: ScanHandler): void {
  const n = html.length;
  let i = 0;
  while (i < n) {
    const lt = html.indexOf("<", i);
    if (lt < 0) {
      handler.text?.(html.slice(i));
      return;
    }
    if (lt > i) handler.text?.(html.slice(i, lt));
    const next = html.charCodeAt(lt + 1);
    if (html.startsWith("<!--", lt)) {
      // An unclosed comment runs to the end of the document, as in browsers.
      const end = html.indexOf("-->", lt + 4);
      if (end < 0) return;
      i = end + 3;
      continue;
    }
    if (next === 33 /* ! */ || next === 63 /* ? */) {
      const end = html.indexOf(">", lt + 2);
      if (end < 0) return;
      i = end + 1;
      continue;
    }
    const closing = next === 47; /* / */
    const nameStart = closing ? lt + 2 : lt + 1;
    if (!isLetter(html.charCodeAt(nameStart))) {
      handler.text?.("<");
      i = lt + 1;
      continue;
    }
    let j = nameStart;
    while (j < n) {
      const c = html.charCodeAt(j);
      if (isSpace(c) || c === 47 || c === 62) break;
      j++;
    }
    const name = html.slice(nameStart, j).toLowerCase();
    const attrs = new Map<string, string>();
    let ended = false;
    while (j < n) {
      const c = html.charCodeAt(j);
      if (c === 62 /* > */) {
        j++;
        ended = true;
        break;
      }
      if (isSpace(c) || c === 47) {
        j++;
        continue;
      }
      const attrStart = j;
      // The first character of a name may be `=` (HTML's rule); later ones end at `=`.
      j++;
      while (j < n) {
        const d = html.charCodeAt(j);
        if (isSpace(d) || d === 47 || d === 62 || d === 61) break;
        j++;
      }
      const attrName = html.slice(attrStart, j).toLowerCase();
      while (j < n && isSpace(html.charCodeAt(j))) j++;
      let value = "";
      if (html.charCodeAt(j) === 61 /* = */) {
        j++;
        while (j < n && isSpace(html.charCodeAt(j))) j++;
        const q = html.charCodeAt(j);
        if (q === 34 || q === 39) {
          const close = html.indexOf(q === 34 ? '"' : "'", j + 1);
          // An unterminated value runs to the end: the tag never ends.
          if (close < 0) return;
          value = html.slice(j + 1, close);
          j = close + 1;
        } else {
          const valueStart = j;
          while (j < n) {
            const d = html.charCodeAt(j);
            if (isSpace(d) || d === 62) break;
            j++;
          }
          value = html.slice(valueStart, j);
        }
      }
      if (!attrs.has(attrName)) attrs.set(attrName, decodeEntities(value));
    }
    // A tag cut off by the end of the document is dropped, as browsers do.
    if (!ended) return;
    i = j;
    if (closing) {
      handler.close?.(name);
      continue;
    }
    handler.open?.(name, attrs);
    if (RAW_TEXT.has(name)) {
      const end = closingTag(html, name, i);
      handler.rawText?.(name, html.slice(i, end < 0 ? n : end));
      if (end < 0) return;
      const gt = html.indexOf(">", end);
      if (gt < 0) return;
      handler.close?.(name);
      i = gt + 1;
    }
  }
}

// Boundaries that read as a space, so "<p>a</p><p>b</p>" does not become "ab".
const BLOCK = new Set(["br", "p", "div", "li", "ul", "ol", "tr", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "blockquote", "dd", "dt", "hr"]);

/** The text of an HTML fragment: tags dropped (block boundaries become spaces), script and style content left out, entities decoded. */
export function htmlText(fragment: string): string {
  const parts: string[] = [];
  scanHtml(fragment, {
    open: (name) => void (BLOCK.has(name) && parts.push(" ")),
    close: (name) => void (BLOCK.has(name) && parts.push(" ")),
    text: (raw) => void parts.push(decodeEntities(raw)),
    rawText: (name, content) => void ((name === "title" || name === "textarea") && parts.push(decodeEntities(content))),
  });
  return parts.join("");
}
