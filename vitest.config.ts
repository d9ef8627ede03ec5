import { availableParallelism } from "node:os"
import { relative } from "node:path"
import { defineConfig } from "vitest/config"
import { BaseSequencer, type TestSpecification } from "vitest/node"

// The files that take a minute or so, longest first. Vitest starts the files it has no timings for (a clean clone,
// as in CI, has none) largest first, which put some of these last: the suite then waited on one worker for them.
// Started first, the two workers end together. A name missing here costs time, never a result.
const LONG_FILES = [
  "test/package/pack.test.ts",
  "test/multi-node/mixed-transfers.test.ts",
  "test/checkpoints/clock-restart.test.ts",
  "test/properties/model/model.props.test.ts",
  "test/cli/cli.test.ts",
  "test/cli/serve-startup.test.ts",
  "test/cli/scenario-cli.test.ts",
  "test/cli/serve-secrets.test.ts",
]

class LongFilesFirst extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    const rank = (f: TestSpecification) => {
      const i = LONG_FILES.indexOf(relative(f.project.config.root, f.moduleId).replaceAll("\\", "/"))
      return i === -1 ? LONG_FILES.length : i
    }
    // Array.prototype.sort is stable: the others keep vitest's order (by its timings when it has them).
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b))
  }
}

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
    sequence: { sequencer: LongFilesFirst },
  },
})
