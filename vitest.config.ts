import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";

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
    // Test workers and the servers they start (which inherit the environment) hash
    // passwords at scrypt N=1024 instead of production's 32768: same code, 1/32 of the CPU.
    env: { PASSWORD_TEST_SCRYPT_N: "1024" },
    // expect.poll waits for state another process reaches (a server, a browser); on a loaded
    // 2-core machine one second is too little. Only a failing poll waits this long.
    expect: { poll: { timeout: 10_000 } },
  },
});
