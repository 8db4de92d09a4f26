import { fileURLToPath } from "node:url";

import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL("..", import.meta.url));

export default defineConfig({
  root,
  resolve: { alias: { "~": `${root}app` } },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "tests/unit/**/*.test.{ts,tsx}"],
    environment: "node",
    // The migrated embedded database, made once and copied by each test file (tests/support/test-database.ts).
    globalSetup: ["tests/support/migrated-template.ts", "tests/support/built-workers.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: two workers keep PGlite start-ups from starving each other.
    maxWorkers: 2,
  },
});
