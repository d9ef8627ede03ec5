import { availableParallelism } from "node:os"
import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/setup.ts"],
    globalSetup: ["test/global-setup.ts"],
    // Limits for a hung test, not budgets (those live in scripts/bench): a loaded machine runs a compute-heavy
    // property test several times slower than a quiet one, and a 30 s limit failed them at a load of 20.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, where most files wait on child
    // processes, sockets and a simulated clock rather than compute. At least two keep both cores busy.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
})
