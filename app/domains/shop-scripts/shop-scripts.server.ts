// The shop-page scripts (SPEC 4.7, 9) as served: built once by
// app/sdk/build.mjs into build/sdk/, read here once per process with APP_URL
// and the anon key substituted for their placeholders. `widget.js` is the v1
// alias (short cache, revalidated by ETag); `widget.<hash>.js` is a pinned
// build (immutable). Only names in the build's manifest are served.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { env } from "~/env.server";
import { getAnonKey } from "~/domains/secrets/secrets.server";

export interface SdkScript {
  body: Buffer;
  /** Strong validator over the served bytes. */
  etag: string;
  /** A content-hashed copy: never changes under its name. */
  pinned: boolean;
}

/** Deprecated script paths (SPEC 9) → their canonical file. */
export const DEPRECATED_SCRIPT_PATHS: Record<string, string> = {
  "/sdk/save-sdk.js": "/sdk/v1/widget.js",
  "/widget.js": "/sdk/v1/widget.js",
  "/sdk/basket-integration.js": "/sdk/v1/basket-integration.js",
};

export const ALIAS_CACHE_CONTROL = "public, max-age=300";
export const PINNED_CACHE_CONTROL = "public, max-age=31536000, immutable";

// The server runs from the project root (npm start, tests), where the build lives.
const buildDir = () => path.resolve(process.cwd(), "build/sdk");

async function loadScripts(): Promise<Map<string, SdkScript>> {
  const dir = buildDir();
  const manifest = JSON.parse(await readFile(path.join(dir, "manifest.json"), "utf8")) as Record<string, string>;
  const appUrl = env.APP_URL;
  const anonKey = await getAnonKey();
  const scripts = new Map<string, SdkScript>();
  for (const [name, hashed] of Object.entries(manifest)) {
    const source = await readFile(path.join(dir, `${name}.js`), "utf8");
    // JSON.stringify(...).slice(1, -1): safe inside the string literals the placeholders sit in.
    const text = source
      .split("__WISH_APP_URL__")
      .join(JSON.stringify(appUrl).slice(1, -1))
      .split("__WISH_ANON_KEY__")
      .join(JSON.stringify(anonKey).slice(1, -1));
    const body = Buffer.from(text, "utf8");
    const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
    scripts.set(`${name}.js`, { body, etag, pinned: false });
    scripts.set(hashed, { body, etag, pinned: true });
  }
  return scripts;
}

let loaded: Promise<Map<string, SdkScript>> | undefined;

/** The served script for a file name under /sdk/v1/, or null when there is none. */
export async function sdkScript(file: string): Promise<SdkScript | null> {
  loaded ??= loadScripts().catch((err) => {
    loaded = undefined; // a missing build is retried on the next request, not remembered
    throw err;
  });
  return (await loaded).get(file) ?? null;
}

