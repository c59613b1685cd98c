import { defineConfig } from "vitest/config"

// API tests boot the whole app once per worker (an in-memory PGlite costs seconds to initdb), so test files
// of one worker share their module registry (isolate: false) and thus that one app; each test uses its own tenant.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    pool: "forks",
    isolate: false,
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000
  }
})
