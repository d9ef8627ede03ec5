import { availableParallelism } from "node:os"
import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/setup.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, where most files wait on child
    // processes, sockets and a simulated clock rather than compute. At least two keep both cores busy.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
})
