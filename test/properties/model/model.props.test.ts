// Model-based test: random sequences of API and control-plane calls against the in-process simulator, each
// followed by the checks of invariants.ts, and a full rebuild from the log at the end of every run.
import fc from "fast-check"
import { describe, it } from "vitest"
import { PROPERTY_TIMEOUT_MS, runs } from "../budget.js"
import { commandSequences } from "./commands.js"
import { REGRESSIONS } from "./regressions.js"
import { custody } from "../arbitraries/base-units.js"
import { runModel, type ModelCommand } from "./run.js"
import type { Model } from "./world.js"

const AUTO: Model["policy"] = { mode: "auto", levels: 1 }

describe("the simulator against a simple model", () => {
  it(
    "conserves money, never overdraws, moves statuses legally, and answers like a rebuild from its log",
    async () => {
      await fc.assert(
        fc.asyncProperty(commandSequences(), custody.approvalPolicy, (cmds, policy) => runModel(cmds, policy)),
        { numRuns: runs(0.3), examples: REGRESSIONS.map((r): [Iterable<ModelCommand>, Model["policy"]] => [r.commands, r.policy ?? AUTO]) },
      )
    },
    PROPERTY_TIMEOUT_MS,
  )
})
