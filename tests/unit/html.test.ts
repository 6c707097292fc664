// The one HTML escaper (app/lib/html.ts): every interpolated value is escaped,
// nested templates and rawHtml pass as they are, lists join, empty values vanish.
import { describe, expect, it } from "vitest";
import { escapeLiquidText, escapeText, html, liquid, rawHtml, SafeHtml } from "~/lib/html";

describe("html", () => {
  it("escapes every interpolated text, in text and in quoted attributes", () => {
    const hostile = `"><script>alert('x')</script>&`;
    const out = html`<a href="${hostile}" title='${hostile}'>${hostile}</a>`.toString();
    expect(out).toBe(
      `<a href="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;" title='&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;'>&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;</a>`
    );
    expect(out).not.toContain("<script>");
  });

  it("passes nested html results and rawHtml as they are, and escapes a string that looks like markup", () => {
    const inner = html`<b>${"a & b"}</b>`;
    expect(html`<p>${inner}</p>`.toString()).toBe("<p><b>a &amp; b</b></p>");
    expect(html`<p>${rawHtml("<i>ok</i>")}</p>`.toString()).toBe("<p><i>ok</i></p>");
    expect(html`<p>${"<i>not ok</i>"}</p>`.toString()).toBe("<p>&lt;i&gt;not ok&lt;/i&gt;</p>");
  });

  it("joins arrays, renders numbers, and leaves null, undefined and false out", () => {
    const items = ["<1>", "2"].map((x) => html`<li>${x}</li>`);
    expect(html`<ul>${items}</ul>`.toString()).toBe("<ul><li>&lt;1&gt;</li><li>2</li></ul>");
    expect(html`${0}|${null}|${undefined}|${false}|${true}`.toString()).toBe("0||||true");
    expect(html`x`).toBeInstanceOf(SafeHtml);
  });

  it("escapeText escapes the five characters and nothing else", () => {
    expect(escapeText(`&<>"'é€ \n`)).toBe("&amp;&lt;&gt;&quot;&#39;é€ \n");
  });
});

describe("liquid", () => {
  it("escapes HTML and turns braces and percent signs into references, so no Liquid tag can form from a value", () => {
    const out = liquid`<p title="${"{{ shop.secret }}"}">${"{% if x %}<b>&</b>{% endif %}"}</p>`.toString();
    expect(out).toBe(`<p title="&#123;&#123; shop.secret &#125;&#125;">&#123;&#37; if x &#37;&#125;&lt;b&gt;&amp;&lt;/b&gt;&#123;&#37; endif &#37;&#125;</p>`);
    expect(out).not.toMatch(/\{\{|\{%/);
    expect(escapeLiquidText("50% {x}")).toBe("50&#37; &#123;x&#125;");
  });
});
