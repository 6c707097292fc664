// Draws the 1200×630 link-preview PNG of a list (SPEC 4.4): satori lays out
// the card as SVG, resvg rasterises it. No React, no network: fonts come from
// @fontsource/inter on disk and product images arrive as data URIs of the
// service's own stored copies. Runs inside og-worker.mjs, off the request thread.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Resvg } from "@resvg/resvg-js";
import satori from "satori";

export const OG_WIDTH = 1200;
export const OG_HEIGHT = 630;

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
  props: { style, children, ...extra },
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

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function card(input: OgCard): Node {
  const images = input.images.slice(0, 4);
  const tile = images.length > 1 ? 200 : 420;
  const gallery = images.length
    ? el(
        "div",
        { display: "flex", flexWrap: "wrap", width: 420, gap: 20, justifyContent: "center" },
        images.map((src) =>
          el("img", { width: tile, height: tile, objectFit: "cover", borderRadius: 24, backgroundColor: "#ffffff" }, undefined, {
            src,
            width: tile,
            height: tile,
          }),
        ),
      )
    : el(
        "div",
        { display: "flex", width: 420, height: 420, borderRadius: 48, backgroundColor: "#f3d9c9", alignItems: "center", justifyContent: "center", fontSize: 220, fontWeight: 700, color: "#b4532a" },
        (input.title.trim()[0] ?? "W").toUpperCase(),
      );
  return el(
    "div",
    {
      width: OG_WIDTH,
      height: OG_HEIGHT,
      display: "flex",
      alignItems: "center",
      justifyContent: "space-between",
      padding: 80,
      backgroundColor: "#fff7f0",
      fontFamily: "Inter",
      color: "#1f1a17",
    },
    [
      el("div", { display: "flex", flexDirection: "column", width: images.length ? 580 : 560, gap: 24 }, [
        el("div", { fontSize: 68, fontWeight: 700, lineHeight: 1.1 }, clip(input.title, 60)),
        el("div", { fontSize: 36, color: "#5b4d44" }, clip(input.subtitle, 60)),
        el("div", { fontSize: 32, color: "#b4532a", fontWeight: 700 }, clip(input.caption, 40)),
      ]),
      gallery,
    ],
  );
}

/** The PNG bytes of `input` (1200×630). */
export async function renderOgCard(input: OgCard): Promise<Buffer> {
  const svg = await satori(card(input) as never, { width: OG_WIDTH, height: OG_HEIGHT, fonts: loadFonts() });
  return new Resvg(svg, { fitTo: { mode: "width", value: OG_WIDTH } }).render().asPng();
}
