// Browser tests need Debian's chromium (GUIDE section 4). A fresh machine lacks
// it: say how to install it instead of failing deep inside a test.
import { existsSync } from "node:fs";

const path = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(path)) {
  console.error(`chromium not found at ${path}. Install it with: apt-get install -y --no-install-recommends chromium fonts-dejavu-core`);
  process.exit(1);
}
