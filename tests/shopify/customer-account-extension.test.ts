// The customer account extension's files (extensions/wishlist-account) and
// the metafield definitions in shopify.app.toml: what no tool here checks —
// the full-page target and its single targeting, network access, every text
// the page shows in English and German, and definitions that match what the
// mirror writes.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { CUSTOMER_METAFIELD_NAMESPACE, CUSTOMER_METAFIELDS } from "~/domains/customer-accounts/metafield-mirror.server";

const root = path.resolve(import.meta.dirname, "../..");
const dir = path.join(root, "extensions/wishlist-account");
const read = (file: string) => readFileSync(path.join(dir, file), "utf8");

describe("customer account extension", () => {
  const toml = read("shopify.extension.toml");

  it("is one ui_extension on the full-page target, with network access to the app", () => {
    expect(toml).toMatch(/^api_version = "2026-01"$/m);
    expect(toml).toMatch(/^type = "ui_extension"$/m);
    expect(toml).toMatch(/^handle = "wishlist-account"$/m);
    // A full-page target cannot share its extension with another target.
    expect(toml.match(/^\[\[extensions\.targeting\]\]$/gm)).toHaveLength(1);
    expect(toml).toMatch(/^target = "customer-account\.page\.render"$/m);
    const module = /^module = "(.+)"$/m.exec(toml)?.[1];
    expect(module && existsSync(path.join(dir, module))).toBe(true);
    const capabilities = toml.slice(toml.indexOf("[extensions.capabilities]"));
    expect(capabilities).toMatch(/^network_access = true$/m);
  });

  it("has every text it shows in English and German", () => {
    const en = JSON.parse(read("locales/en.default.json")) as Record<string, string>;
    const de = JSON.parse(read("locales/de.json")) as Record<string, string>;
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
    const used = [...read("src/WishlistPage.tsx").matchAll(/i18n\.translate\("([^"]+)"/g)].map((m) => m[1]);
    expect(used.length).toBeGreaterThan(10);
    for (const key of used) {
      expect(en[key], `en ${key}`).toBeTruthy();
      expect(de[key], `de ${key}`).toBeTruthy();
    }
    // Placeholders survive translation.
    for (const key of Object.keys(en)) {
      const names = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
      expect(names(de[key]), key).toEqual(names(en[key]));
    }
  });

  it("bundles as the Shopify CLI does (esbuild from the targeting module), the shared money module inlined, under the full-page limit", async () => {
    // The CLI installs the extension's own packages (preact, @shopify/ui-extensions) and bundles them too;
    // they are left out here (not installed with the app), so the figure is the extension's own code.
    const { build } = await import("esbuild");
    const module = /^module = "(.+)"$/m.exec(toml)![1]!;
    const result = await build({
      entryPoints: [path.join(dir, module)],
      bundle: true,
      write: false,
      minify: true,
      format: "esm",
      jsx: "automatic",
      jsxImportSource: "preact",
      external: ["preact", "preact/*", "@preact/signals", "@shopify/ui-extensions", "@shopify/ui-extensions/*"],
      logLevel: "silent",
    });
    const code = result.outputFiles[0]!.text;
    // app/lib/money.ts, imported from outside the extension's folder, is in the bundle (its pinned exponents).
    expect(code).toContain("HUF");
    // Full-page customer account extensions: 128 KB compressed
    // (https://shopify.dev/docs/apps/build/customer-accounts/extension-performance/optimize-bundle-size).
    expect(gzipSync(code).length).toBeLessThan(32 * 1024);
  });

  it("formats prices in minor units per currency", async () => {
    const { formatPrice } = await import("../../extensions/wishlist-account/src/api.ts");
    expect(formatPrice(2490, "EUR", "de")).toBe(new Intl.NumberFormat("de", { style: "currency", currency: "EUR" }).format(24.9));
    expect(formatPrice(1500, "JPY", "en")).toBe(new Intl.NumberFormat("en", { style: "currency", currency: "JPY" }).format(1500));
    expect(formatPrice(null, "EUR", "en")).toBeNull();
    expect(formatPrice(100, "NOT-A-CURRENCY", "en")).toBeNull();
  });
});

describe("customer metafield definitions (shopify.app.toml)", () => {
  const app = readFileSync(path.join(root, "shopify.app.toml"), "utf8");

  it("declares each key the mirror writes, app-owned, with the type it writes, read-only for merchants", () => {
    expect(CUSTOMER_METAFIELD_NAMESPACE).toBe("$app");
    for (const { key, type } of Object.values(CUSTOMER_METAFIELDS)) {
      const block = new RegExp(`^\\[customer\\.metafields\\.app\\.${key}\\]\\n((?:[^\\[\\n].*\\n?)*)`, "m").exec(app)?.[1];
      expect(block, key).toBeTruthy();
      expect(block).toMatch(new RegExp(`^type = "${type.replace(/\./g, "\\.")}"$`, "m"));
      expect(block).toMatch(/^name = ".+"$/m);
      expect(block).toMatch(/^access\.admin = "merchant_read"$/m);
    }
  });

  it("asks for the scope metafieldsSet on customers needs, as the SCOPES default does", async () => {
    const scopes = /^scopes = "(.+)"$/m.exec(app)?.[1].split(",");
    expect(scopes).toContain("write_customers");
    const env = readFileSync(path.join(root, "app/env.server.ts"), "utf8");
    expect(env).toContain(`SCOPES: z.string().default("${scopes!.join(",")}")`);
  });
});
