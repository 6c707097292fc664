// A shop's basket colour as the accent of the pages that belong to the shop
// (the save dialog, the basket drawer, a share page of the shop's items). The
// colour fills the primary buttons, so the text on it is white or near-black,
// whichever reaches WCAG AA (4.5:1); where the accent itself is text on the
// white page (links, outlined buttons) a light colour is darkened, keeping its
// hue, until it reaches AA. Plain code: the server and the browser use it.

export interface ShopAccent {
  /** `#rrggbb`: fills. */
  accent: string;
  /** Text on the accent. */
  text: string;
  /** The accent as text on white. */
  ink: string;
}

type Rgb = [number, number, number];

const HEX = /^#([0-9a-f]{6}|[0-9a-f]{3})$/i;
const WHITE: Rgb = [255, 255, 255];
const AA = 4.5;

function parse(hex: string): Rgb | null {
  const match = HEX.exec(hex.trim());
  if (!match) return null;
  const digits = match[1]!.length === 3 ? [...match[1]!].map((d) => d + d).join("") : match[1]!;
  return [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16)) as Rgb;
}

const toHex = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;

/** WCAG 2 relative luminance. */
function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two colours (1 to 21). */
export function contrast(a: string, b: string): number {
  const [la, lb] = [parse(a), parse(b)].map((c) => luminance(c ?? WHITE)) as [number, number];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** White when it reaches AA on the colour, else near-black, else black (which always reaches 4.58:1 where white does not). */
function textOn(hex: string): string {
  for (const candidate of ["#ffffff", "#111111", "#000000"]) if (contrast(candidate, hex) >= AA) return candidate;
  return "#000000";
}

/** The colour mixed towards black in steps until it reads on white. */
function inkOf(rgb: Rgb): string {
  for (let k = 0; k <= 20; k++) {
    const mixed = rgb.map((c) => c * (1 - k / 20)) as Rgb;
    if (contrast(toHex(mixed), "#ffffff") >= AA) return toHex(mixed);
  }
  return "#000000";
}

/** The accent for a `#rrggbb` (or `#rgb`) colour; null for anything else, which keeps the default accent. */
export function shopAccent(color: string | null | undefined): ShopAccent | null {
  const rgb = color ? parse(color) : null;
  if (!rgb) return null;
  const accent = toHex(rgb);
  return { accent, text: textOn(accent), ink: inkOf(rgb) };
}

/** A React style setting the design system's accent properties (design.css) from a shop colour; none for anything else. */
export function accentStyle(color: string | null | undefined): Record<string, string> | undefined {
  const accent = shopAccent(color);
  return accent ? { "--accent": accent.accent, "--accent-text": accent.text, "--accent-ink": accent.ink } : undefined;
}
