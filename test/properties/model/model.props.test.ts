// Model-based test: random sequences of API and control-plane calls against the in-process simulator, each
// followed by the checks of invariants.ts, and a full rebuild from the log at the end of every run.
import fc from "fast-check"
import { describe, it } from "vitest"
import { runs } from "../budget.js"
import { commandSequences } from "./commands.js"
import { checkInvariants } from "./invariants.js"
import { compareFreshRebuild } from "./rebuild.js"
import { REGRESSIONS } from "./regressions.js"
import { closeWorld, startWorld, type Model, type Real } from "./world.js"

export const runModel = async (cmds: Iterable<fc.AsyncCommand<Model, Real>>, strict?: Parameters<typeof startWorld>[0]) => {
  const { model, real } = await startWorld(strict)
  try {
    await checkInvariants(model, real)
    await fc.asyncModelRun(() => ({ model, real }), cmds)
    await compareFreshRebuild(model, real)
  } finally {
    await closeWorld(real)
  }
}

describe("the simulator against a simple model", () => {
  it("conserves money, never overdraws, moves statuses legally, and answers like a rebuild from its log", async () => {
    await fc.assert(
      fc.asyncProperty(commandSequences(), (cmds) => runModel(cmds)),
      { numRuns: runs(0.3), examples: REGRESSIONS.map((r): [Iterable<fc.AsyncCommand<Model, Real>>] => [r.commands]) },
    )
  })
})
