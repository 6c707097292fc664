import path from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import tsconfigPaths from "vite-tsconfig-paths";

// The files that take longest (one to three minutes each on CI's loaded 2-core machine; ranked by their
// time on SQLite plus on PostgreSQL in a CI run), longest first. They start first, so the run does not end
// with one of them alone on a core. A clean clone has no vitest cache of durations, and vitest would order
// them by file size; after them, vitest's own order (cached durations, else size) applies.
const LONGEST_FIRST = [
  "tests/outbox/outbox.test.ts",
  "tests/identity/revocation.test.ts",
  "tests/storefront/journey.test.ts",
  "tests/storefront/my-lists.test.ts",
  "tests/alerts/rescrape-alerts.test.ts",
  "tests/alerts/fanout.test.ts",
  "tests/operations/cli.test.ts",
  "tests/shopify/webhooks.test.ts",
  "tests/storefront/theme-hearts.test.ts",
  "tests/storefront/account.test.ts",
  "tests/shopify/admin-preview.test.ts",
  "tests/alerts/reminders.test.ts",
  "tests/metering/metering.test.ts",
  "tests/operations/capacity.test.ts",
  "tests/alerts/alerts.test.ts",
  "tests/storefront/cdn.test.ts",
  "tests/storefront/share.test.ts",
  "tests/operations/shutdown.test.ts",
  "tests/baskets/baskets.test.ts",
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const at = LONGEST_FIRST.findIndex((file) => spec.moduleId.split(path.sep).join("/").endsWith(`/${file}`));
      return at === -1 ? LONGEST_FIRST.length : at;
    };
    return sorted.map((spec, i) => ({ spec, i, rank: rank(spec) })).sort((a, b) => a.rank - b.rank || a.i - b.i).map(({ spec }) => spec);
  }
}

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    include: ["tests/**/*.test.ts"],
    globalSetup: ["tests/support/global-setup.ts"],
    pool: "forks",
    // Test files mostly wait on the servers they start: two at a time on the 2-core machines (vitest's default is cores − 1).
    maxWorkers: 2,
    minWorkers: 1,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    allowOnly: false,
    sequence: { sequencer: LongestFirst },
    // Test workers and the servers they start (which inherit the environment) hash
    // passwords at scrypt N=1024 instead of production's 32768: same code, 1/32 of the CPU.
    env: { PASSWORD_TEST_SCRYPT_N: "1024" },
    // expect.poll waits for state another process reaches (a server, a browser); on a loaded
    // 2-core machine one second is too little. Only a failing poll waits this long.
    expect: { poll: { timeout: 10_000 } },
  },
});
