// Writes the app's address into the extension before `shopify app deploy`:
// `APP_URL=https://wishlist.example node extensions/wishlist-account/set-app-url.mjs`.
// The extension runs on Shopify's servers and has no environment of its own.
import { readFileSync, writeFileSync } from "node:fs";

const url = new URL(process.env.APP_URL ?? "").origin;
const file = new URL("./src/app-url.ts", import.meta.url);
const text = readFileSync(file, "utf8").replace(/export const APP_URL = ".*";/, `export const APP_URL = ${JSON.stringify(url)};`);
writeFileSync(file, text);
console.log(`extensions/wishlist-account: APP_URL = ${url}`);
