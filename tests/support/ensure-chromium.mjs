// Browser tests need Debian's chromium and its headless shell (GUIDE section 4,
// tests/support/browser.ts). A fresh machine lacks them: say how to install them
// instead of failing deep inside a test.
import { existsSync } from "node:fs";

const browsers = [process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? "/usr/bin/chromium-headless-shell"];
const missing = browsers.filter((path) => !existsSync(path));
if (missing.length > 0) {
  console.error(`${missing.join(" and ")} not found. Install them with: apt-get install -y --no-install-recommends chromium chromium-headless-shell fonts-dejavu-core`);
  process.exit(1);
}
