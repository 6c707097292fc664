// Draws the 1200×630 link-preview PNG of a list (SPEC 4.4): satori lays out
// the card as SVG, resvg rasterises it. No React, no network: fonts come from
// @fontsource/inter on disk and product images arrive as data URIs of the
// service's own stored copies. Runs inside og-worker.mjs, off the request thread.
//
// Layout: the card is 1200×630 with every box border-box and a 64 px margin
// (link previews crop and round the edges; nothing is drawn in it). Text on
// the left (list name in at most two lines, owner, item count), the product
// images on the right in a square gallery: one large image, two side by side
// on a panel, three or four in a 2×2 grid (the fourth cell of three is a
// plain tile). Images are cropped to fill their square tiles.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Resvg } from "@resvg/resvg-js";
import satori from "satori";

export const OG_WIDTH = 1200;
export const OG_HEIGHT = 630;
/** Nothing is drawn closer than this to an edge. */
const OG_MARGIN = 64;
/** The card's background: also what the margin shows. */
const OG_BACKGROUND = "#fff7f0";
const ACCENT = "#b4532a";
const ACCENT_SOFT = "#f6e0d2";
const INK = "#1f1a17";
const MUTED = "#5b4d44";

/** Everything the picture shows; its hash names the file. */
export interface OgCard {
  /** Heading: the list name, or the service name for the default card. */
  title: string;
  /** Second line: "by Anna" / "von Anna". */
  subtitle: string;
  /** Third line: "3 wishes" / "3 Wünsche". */
  caption: string;
  /** Up to four product images as data URIs (png, jpeg or gif). */
  images: string[];
}

type Node = { type: string; props: Record<string, unknown> & { style?: Record<string, unknown>; children?: unknown } };
const el = (type: string, style: Record<string, unknown>, children?: unknown, extra: Record<string, unknown> = {}): Node => ({
  type,
  props: { style: { display: "flex", boxSizing: "border-box", ...style }, children, ...extra },
});

let fonts: { name: string; data: Buffer; weight: 400 | 700; style: "normal" }[] | undefined;
function loadFonts() {
  if (fonts) return fonts;
  const require = createRequire(import.meta.url);
  // satori reads woff/ttf/otf, not woff2.
  const file = (subset: string, weight: number) =>
    readFileSync(require.resolve(`@fontsource/inter/files/inter-${subset}-${weight}-normal.woff`));
  fonts = (["latin", "latin-ext"] as const).flatMap((subset) => [
    { name: "Inter", data: file(subset, 400), weight: 400 as const, style: "normal" as const },
    { name: "Inter", data: file(subset, 700), weight: 700 as const, style: "normal" as const },
  ]);
  return fonts;
}

const CONTENT_WIDTH = OG_WIDTH - 2 * OG_MARGIN; // 1072
const CONTENT_HEIGHT = OG_HEIGHT - 2 * OG_MARGIN; // 502
const GALLERY = CONTENT_HEIGHT; // a square as tall as the content
const COLUMN_GAP = 56;
const TEXT_WIDTH = CONTENT_WIDTH - GALLERY - COLUMN_GAP; // 514
const TILE_GAP = 16;
const RADIUS = 28;

/** Cuts `text` to `max` characters, ending in "…" at a word boundary when one is near. */
function shorten(text: string, max: number): string {
  const clean = text.replace(/\s+/g, " ").trim();
  if ([...clean].length <= max) return clean;
  const cut = [...clean].slice(0, max - 1).join("");
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

function tile(src: string | null, width: number, height: number, radius: number): Node {
  if (!src) return el("div", { width, height, borderRadius: radius, backgroundColor: ACCENT_SOFT });
  return el("img", { width, height, objectFit: "cover", borderRadius: radius }, undefined, { src, width, height });
}

function gallery(images: string[], title: string): Node {
  const box = { width: GALLERY, height: GALLERY, flexShrink: 0 };
  if (images.length === 0) {
    // No product image: the list's initial on a tile of the accent's tint.
    const initial = [...title.trim()][0]?.toUpperCase() ?? "W";
    return el(
      "div",
      { ...box, borderRadius: RADIUS * 1.5, backgroundColor: ACCENT_SOFT, alignItems: "center", justifyContent: "center", color: ACCENT, fontSize: 240, fontWeight: 700 },
      initial,
    );
  }
  if (images.length === 1) return el("div", box, [tile(images[0]!, GALLERY, GALLERY, RADIUS * 1.5)]);
  const half = (GALLERY - TILE_GAP) / 2;
  if (images.length === 2) {
    // Side by side as squares (tall strips would cut most products out of
    // their photos), on a panel of the accent's tint that keeps the gallery square.
    const side = (GALLERY - 3 * TILE_GAP) / 2;
    return el(
      "div",
      { ...box, padding: TILE_GAP, justifyContent: "space-between", alignItems: "center", borderRadius: RADIUS * 1.5, backgroundColor: ACCENT_SOFT },
      images.map((src) => tile(src, side, side, RADIUS)),
    );
  }
  const cells = [0, 1, 2, 3].map((i) => images[i] ?? null);
  return el("div", { ...box, flexWrap: "wrap", justifyContent: "space-between", alignContent: "space-between" }, cells.map((src) => tile(src, half, half, RADIUS)));
}

const LINE_HEIGHT = 1.15;
type TextStyle = Record<string, unknown> & { fontSize: number };
const textStyle = (fontSize: number, fontWeight: 400 | 700): TextStyle => ({
  display: "block",
  width: TEXT_WIDTH,
  fontFamily: "Inter",
  fontSize,
  fontWeight,
  lineHeight: LINE_HEIGHT,
  wordBreak: "break-word",
});
const subtitleStyle = textStyle(34, 400);

const unescapeXml = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) =>
    e[0] === "#" ? String.fromCodePoint(e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : ({ amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" } as Record<string, string>)[e.toLowerCase()]!,
  );

// The title takes two lines at most and the owner line one. satori's own
// lineClamp cuts mid-word, so fitText() finds the cut itself: it lays the
// text out alone with satori (same style and width as on the card, text left
// as <text> elements) and reads which words landed on which line. What does
// not fit is replaced by "…" after the last whole word (inside a word only
// when a single word fills the line). lineClamp stays on the card as a backstop.

/** The lines satori breaks `text` into at TEXT_WIDTH, and the right edge of the widest (overflows with wordBreak normal). */
async function layout(text: string, style: TextStyle): Promise<{ lines: string[]; right: number }> {
  const svg = await satori(el("div", style, text) as never, { width: TEXT_WIDTH, height: 1000, fonts: loadFonts(), embedFont: false });
  const lineHeight = style.fontSize * LINE_HEIGHT;
  const lines: string[] = [];
  let right = 0;
  for (const m of svg.matchAll(/<text\b([^>]*)>([^<]*)<\/text>/g)) {
    const attr = (name: string) => Number(m[1]!.match(new RegExp(`\\s${name}="([^"]+)"`))?.[1] ?? 0);
    const fragment = unescapeXml(m[2]!);
    // y is the baseline, inside its line's box.
    const line = Math.floor(attr("y") / lineHeight);
    lines[line] = (lines[line] ?? "") + fragment;
    if (fragment.trim()) right = Math.max(right, attr("x") + attr("width"));
  }
  return { lines: lines.filter((l) => l !== undefined), right };
}

/** `text` as is when it takes at most `maxLines` lines, else cut so that it does with "…" at the end. */
async function fitText(text: string, style: TextStyle, maxLines: number): Promise<string> {
  const { lines } = await layout(text, style);
  if (lines.length <= maxLines) return text;
  const before = lines.slice(0, maxLines - 1).join("").length; // characters on the lines before the last
  // No space, hyphen or separating punctuation right before the "…".
  const tidy = (t: string) => t.replace(/[\s\-–—,;:.·/]+$/u, "");
  let head = tidy(lines.slice(0, maxLines).join(""));
  for (let attempt = 0; attempt < 40 && head.length > 0; attempt++) {
    const candidate = `${head}…`;
    if ((await layout(candidate, style)).lines.length <= maxLines) return candidate;
    // Drop the last word (or part of a hyphenated one) while the last line keeps one; else the last character.
    const boundary = Math.max(head.lastIndexOf(" "), head.lastIndexOf("-"));
    head = tidy(boundary > before ? head.slice(0, boundary) : [...head].slice(0, -1).join(""));
  }
  return `${head}…`;
}

/**
 * The title's style: short names larger, and small enough that its longest
 * word fits on a line (German compounds are long); only a word that does not
 * fit even at the smallest size is broken.
 */
async function titleStyleFor(title: string): Promise<TextStyle> {
  const length = [...title].length;
  const largest = length <= 24 ? 64 : length <= 48 ? 56 : 50;
  for (const size of [64, 56, 50, 44].filter((s) => s <= largest)) {
    const style = textStyle(size, 700);
    if ((await layout(title, { ...style, wordBreak: "normal" })).right <= TEXT_WIDTH) return style;
  }
  return textStyle(44, 700);
}

async function card(input: OgCard): Promise<Node> {
  const images = input.images.slice(0, 4);
  // shorten() first: a name of any length costs the same few layouts.
  const titleText = shorten(input.title, 90);
  const titleStyle = await titleStyleFor(titleText);
  const title = await fitText(titleText, titleStyle, 2);
  const subtitle = await fitText(shorten(input.subtitle, 80), subtitleStyle, 1);
  const caption = input.caption
    ? el("div", { alignSelf: "flex-start", padding: "10px 24px", borderRadius: 999, backgroundColor: ACCENT, color: "#ffffff", fontSize: 30, fontWeight: 700 }, shorten(input.caption, 40))
    : el("div", {});
  return el(
    "div",
    {
      width: OG_WIDTH,
      height: OG_HEIGHT,
      padding: OG_MARGIN,
      alignItems: "stretch",
      justifyContent: "space-between",
      backgroundColor: OG_BACKGROUND,
      fontFamily: "Inter",
      color: INK,
    },
    [
      el("div", { flexDirection: "column", justifyContent: "space-between", width: TEXT_WIDTH, height: CONTENT_HEIGHT }, [
        el("div", { flexDirection: "column", width: TEXT_WIDTH }, [
          el("div", { width: 72, height: 8, borderRadius: 4, backgroundColor: ACCENT, marginBottom: 32 }),
          el("div", { ...titleStyle, lineClamp: 2, overflow: "hidden" }, title),
          el("div", { ...subtitleStyle, lineClamp: 1, overflow: "hidden", marginTop: 20, color: MUTED }, subtitle),
        ]),
        caption,
      ]),
      gallery(images, input.title),
    ],
  );
}

/** The PNG bytes of `input` (1200×630). */
export async function renderOgCard(input: OgCard): Promise<Buffer> {
  const svg = await satori((await card(input)) as never, { width: OG_WIDTH, height: OG_HEIGHT, fonts: loadFonts() });
  return new Resvg(svg, { fitTo: { mode: "width", value: OG_WIDTH } }).render().asPng();
}
