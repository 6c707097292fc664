// Writes the app's address into the Flow extensions before `shopify app deploy`:
// `APP_URL=https://wishlist.example node extensions/set-flow-urls.mjs`.
// Flow calls the lifecycle callback and the action at absolute HTTPS URLs.
import { readFileSync, writeFileSync } from "node:fs";

const url = new URL(process.env.APP_URL ?? "");
if (url.protocol !== "https:") throw new Error("APP_URL must be an https:// address: Flow calls only HTTPS URLs");
const origin = url.origin;
for (const [dir, key, path] of [
  ["flow-lifecycle", "url", "/flow/lifecycle"],
  ["flow-add-to-wishlist", "runtime_url", "/flow/actions/add-to-wishlist"],
]) {
  const file = new URL(`./${dir}/shopify.extension.toml`, import.meta.url);
  const text = readFileSync(file, "utf8").replace(new RegExp(`^${key} = ".*"$`, "m"), `${key} = ${JSON.stringify(origin + path)}`);
  writeFileSync(file, text);
  console.log(`extensions/${dir}: ${key} = ${origin}${path}`);
}
