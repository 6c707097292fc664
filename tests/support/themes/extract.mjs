// Copies the CSS the theme fixtures use from Shopify's own themes (run by hand when a theme
// version changes; the output is committed): node tests/support/themes/extract.mjs <dawn repo> <horizon repo>
// (bare git repositories, e.g. /work/.mirror/Shopify+dawn/repo). Files are copied as they are;
// the settings' CSS variables are rendered with liquidjs from the theme's own settings_data.json
// (font_face and the colour filters approximated: only variables come out of these snippets).
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Liquid } from "liquidjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const [dawn, horizon] = process.argv.slice(2);
if (!dawn || !horizon) throw new Error("usage: extract.mjs <dawn repo> <horizon repo>");
const show = (repo, file) => execFileSync("git", ["-C", repo, "show", `HEAD:${file}`], { encoding: "utf8", maxBuffer: 1 << 26 });
const files = (repo, dir) => execFileSync("git", ["-C", repo, "ls-tree", "--name-only", "HEAD", `${dir}/`], { encoding: "utf8" }).split("\n").filter(Boolean);
const json = (text) => JSON.parse(text.replace(/^\/\*[\s\S]*?\*\//, ""));

class Color {
  constructor(hex) {
    const h = String(hex || "#000000").replace("#", "");
    const n = parseInt(h.length === 3 ? h.replace(/./g, "$&$&") : h.slice(0, 6), 16) || 0;
    Object.assign(this, { red: n >> 16, green: (n >> 8) & 255, blue: n & 255, alpha: 1, hex: `#${h}` });
    this.rgb = `${this.red} ${this.green} ${this.blue}`;
    this.rgba = `${this.rgb} / 1.0`;
  }
  toString() {
    return this.hex;
  }
}
const colorish = (v) => (typeof v === "string" && /^#[0-9a-f]{3,8}$/i.test(v) ? new Color(v) : v);
const hydrate = (o) => (Array.isArray(o) ? o.map(hydrate) : o && typeof o === "object" ? Object.fromEntries(Object.entries(o).map(([k, v]) => [k, hydrate(v)])) : colorish(o));

/** liquidjs reading `{% render %}`ed snippets from the theme repository. */
function engine(repo) {
  const read = (file) => show(repo, file);
  const has = (file) => { try { read(file); return true; } catch { return false; } };
  const fs = { exists: async (f) => has(f), existsSync: has, readFile: async (f) => read(f), readFileSync: read, resolve: (_root, file, ext) => `snippets/${file}${file.endsWith(ext) ? "" : ext}`, contains: () => true, sep: "/", dirname: (f) => path.posix.dirname(f) };
  const liquid = new Liquid({ strictFilters: false, strictVariables: false, fs, root: ["snippets"], extname: ".liquid" });
  const font = { family: "system-ui", fallback_families: "sans-serif", style: "normal", weight: 400 };
  for (const name of ["font_face", "font_url", "inline_asset_content", "asset_url", "image_url"]) liquid.registerFilter(name, () => "");
  for (const name of ["font_modify"]) liquid.registerFilter(name, () => font);
  liquid.registerFilter("color_brightness", (c) => { const x = colorish(String(c)); return x instanceof Color ? (x.red * 299 + x.green * 587 + x.blue * 114) / 1000 : 128; });
  for (const name of ["color_lighten", "color_darken", "color_saturate", "color_desaturate", "color_mix", "color_modify"]) liquid.registerFilter(name, (c) => colorish(String(c)));
  liquid.registerFilter("color_to_rgb", (c) => { const x = colorish(String(c)); return x instanceof Color ? `rgb(${x.red}, ${x.green}, ${x.blue})` : c; });
  liquid.registerTag("stylesheet", { parse(token, remain) { this.tpl = []; const s = liquid.parser.parseStream(remain); s.on("tag:endstylesheet", () => s.stop()).on("template", (t) => this.tpl.push(t)).on("end", () => { throw new Error("stylesheet not closed"); }); s.start(); }, *render() {} });
  liquid.registerTag("style", { parse(token, remain) { this.tpl = []; const s = liquid.parser.parseStream(remain); s.on("tag:endstyle", () => s.stop()).on("template", (t) => this.tpl.push(t)).on("end", () => { throw new Error("style not closed"); }); s.start(); }, *render(ctx, emitter) { emitter.write("<style>"); yield this.liquid.renderer.renderTemplates(this.tpl, ctx, emitter); emitter.write("</style>"); } });
  liquid.registerTag("doc", { parse(token, remain) { while (remain.length && remain.shift().name !== "enddoc"); }, *render() {} });
  return { liquid, font };
}

function settingsOf(repo) {
  const data = json(show(repo, "config/settings_data.json"));
  const current = typeof data.current === "string" ? data.presets[data.current] : data.current;
  const defaults = {};
  for (const group of json(show(repo, "config/settings_schema.json"))) for (const s of group.settings ?? []) if (s.id && "default" in s) defaults[s.id] = s.default;
  return { ...defaults, ...current };
}
const styleBodies = (html) => [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]).join("\n");
const header = (theme, version, sources) => `/* ${theme} ${version} (Shopify), ${sources}; copied by tests/support/themes/extract.mjs. */\n`;

// Dawn: its stylesheets as files, the settings' variables from layout/theme.liquid's style tag.
{
  const out = path.join(here, "dawn");
  mkdirSync(out, { recursive: true });
  const version = json(show(dawn, "config/settings_schema.json"))[0].theme_version;
  for (const f of ["base.css", "component-card.css", "component-price.css", "quick-add.css", "component-facets.css", "component-search.css", "section-main-product.css", "component-list-menu.css", "component-menu-drawer.css"]) {
    writeFileSync(path.join(out, f), header("Dawn", version, `assets/${f}`) + show(dawn, `assets/${f}`));
  }
  const settings = settingsOf(dawn);
  const { liquid, font } = engine(dawn);
  settings.type_body_font = settings.type_header_font = font;
  settings.color_schemes = Object.entries(settings.color_schemes).map(([id, s]) => ({ id, settings: hydrate(s.settings) }));
  const layout = show(dawn, "layout/theme.liquid");
  const block = /\{% style %\}([\s\S]*?)\{% endstyle %\}/.exec(layout)[1];
  const css = await liquid.parseAndRender(block, { settings, body_font_bold: font, body_font_italic: font, body_font_bold_italic: font });
  writeFileSync(path.join(out, "settings.css"), header("Dawn", version, "layout/theme.liquid's settings style, rendered with the Default preset") + css.replace(/\n\s*\n/g, "\n"));
  // The header section's own style tag (drawer hidden on desktop, the inline menu).
  const headerStyle = /<style>([\s\S]*?)<\/style>/.exec(show(dawn, "sections/header.liquid"))[1];
  const headerCss = await liquid.parseAndRender(headerStyle, { section: { settings: { menu_type_desktop: "dropdown", sticky_header_type: "on-scroll-up" } } });
  writeFileSync(path.join(out, "header.css"), header("Dawn", version, "sections/header.liquid's style tag, default header settings") + headerCss);
  console.log(`Dawn ${version}`);
}

// Horizon: base.css, every {% stylesheet %} body (Shopify serves them concatenated), and the
// settings' variables (snippets/theme-styles-variables.liquid, snippets/color-palette.liquid).
{
  const out = path.join(here, "horizon");
  mkdirSync(out, { recursive: true });
  const version = json(show(horizon, "config/settings_schema.json"))[0].theme_version;
  writeFileSync(path.join(out, "base.css"), header("Horizon", version, "assets/base.css") + show(horizon, "assets/base.css"));
  // The morph that facets.js, paginated lists and quick add use to update the page in place.
  writeFileSync(path.join(out, "morph.js"), header("Horizon", version, "assets/morph.js") + show(horizon, "assets/morph.js"));
  const parts = [];
  for (const dir of ["snippets", "blocks", "sections"]) {
    for (const f of files(horizon, dir).filter((f) => f.endsWith(".liquid"))) {
      for (const m of show(horizon, f).matchAll(/\{%-?\s*stylesheet\s*-?%\}([\s\S]*?)\{%-?\s*endstylesheet\s*-?%\}/g)) parts.push(`/* ${f} */\n${m[1]}`);
    }
  }
  writeFileSync(path.join(out, "stylesheets.css"), header("Horizon", version, "every {% stylesheet %} of snippets/, blocks/, sections/") + parts.join("\n"));
  const settings = settingsOf(horizon);
  const { liquid, font } = engine(horizon);
  for (const [k, v] of Object.entries(settings)) if (typeof v === "string" && /_[ni]\d$/.test(v)) settings[k] = font;
  settings.color_schemes = Object.entries(settings.color_schemes ?? {}).map(([id, s]) => ({ id, settings: hydrate(s.settings) }));
  // Settings that point at the palette ("{{ settings.color_palette.color2 }}") take its colour.
  const palette = settings.color_palette ?? {};
  for (const [k, v] of Object.entries(settings)) {
    const ref = typeof v === "string" && /^\{\{\s*settings\.color_palette\.(\w+)\s*\}\}$/.exec(v);
    settings[k] = k === "color_schemes" ? v : hydrate(ref ? palette[ref[1]] : v);
  }
  const render = async (file) => {
    const src = show(horizon, file).replace(/\{%-?\s*render\s+'contrast-override'[\s\S]*?%\}/g, "");
    return styleBodies(await liquid.parseAndRender(src, { settings, request: {} }));
  };
  const css = (await render("snippets/theme-styles-variables.liquid")) + "\n" + (await render("snippets/color-palette.liquid"));
  writeFileSync(path.join(out, "settings.css"), header("Horizon", version, "snippets/theme-styles-variables.liquid and snippets/color-palette.liquid, rendered with settings_data.json") + css.replace(/\n\s*\n/g, "\n"));
  console.log(`Horizon ${version}`);
}
