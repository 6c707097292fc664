// The linear tag scanner the scraper reads pages with (app/lib/html-scan.ts).
import { describe, expect, it } from "vitest";
import { htmlText, scanHtml } from "~/lib/html-scan";
import { HOSTILE_DOCUMENTS } from "../support/hostile-html.ts";

function events(html: string): string[] {
  const out: string[] = [];
  scanHtml(html, {
    open: (name, attrs) => out.push(`<${name}${[...attrs].map(([k, v]) => ` ${k}=${v}`).join("")}>`),
    close: (name) => out.push(`</${name}>`),
    text: (raw) => out.push(`"${raw}"`),
    rawText: (name, content) => out.push(`raw ${name}: ${content}`),
  });
  return out;
}

describe("scanHtml", () => {
  it("reads tags, attributes in every quoting style (entities decoded, first of a repeat wins) and text", () => {
    expect(events(`<META Property="og:title" content='A &amp; B' data-x=1 hidden name=x name=y>hi</P>`)).toEqual([
      "<meta property=og:title content=A & B data-x=1 hidden= name=x>",
      '"hi"',
      "</p>",
    ]);
  });

  it("keeps a > inside a quoted value and skips comments, doctype and stray <", () => {
    expect(events(`<!doctype html><!-- <meta name=a content=b> --><a title="x > y">1 < 2</a>`)).toEqual([
      "<a title=x > y>",
      '"1 "',
      '"<"',
      '" 2"',
      "</a>",
    ]);
  });

  it("reads raw-text elements up to their closing tag in any case, tags inside them are text", () => {
    expect(events(`<script type="application/ld+json">{"a":"<b>"}</SCRIPT ><title>T &amp; <i>x</i></title>`)).toEqual([
      "<script type=application/ld+json>",
      'raw script: {"a":"<b>"}',
      "</script>",
      "<title>",
      "raw title: T &amp; <i>x</i>",
      "</title>",
    ]);
  });

  it("stops at an unclosed comment, an unterminated attribute value or a tag cut off by the end", () => {
    expect(events(`a<!-- <meta name=x content=y>`)).toEqual(['"a"']);
    expect(events(`<p>b<meta content="never closed><meta name=z content=w>`)).toEqual(["<p>", '"b"']);
    expect(events(`<p>c<meta name=x`)).toEqual(["<p>", '"c"']);
  });

  it("gives text with block boundaries as spaces and without script content", () => {
    expect(htmlText(`<p>A&nbsp;<b>cool</b></p><p>mug</p><script>x()</script>line<br>two`).replace(/\s+/g, " ").trim()).toBe("A cool mug line two");
  });

  it("reads each 2 MB hostile document to its end (its cost per byte is measured by npm run bench, tests/bench/cpu.ts)", () => {
    for (const [hostile, opened] of HOSTILE_DOCUMENTS) {
      let tags = 0;
      scanHtml(hostile, { open: () => tags++, text: () => {}, rawText: () => {} });
      expect(tags, hostile.slice(0, 12)).toBe(opened);
    }
  });
});
