import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["**/*.test.ts"],
    // The suite's vitest entry checks an implementation named by DEALKIT_BASE_URL; without one it
    // has nothing to check (npm test checks the bundled server in conformance/self.test.ts).
    exclude: ["node_modules/**", ...(process.env.DEALKIT_BASE_URL ? [] : ["conformance/vitest/**"])],
    // Two cores: keep forks few; server tests bind ephemeral loopback ports only.
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
