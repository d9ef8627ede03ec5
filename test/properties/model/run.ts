// One run of the model-based test: a fresh world, the invariants on the given state, the commands (each checks the
// invariants after itself), then a full rebuild from the log.
import fc from "fast-check"
import { checkInvariants } from "./invariants.js"
import { compareFreshRebuild } from "./rebuild.js"
import { closeWorld, startWorld, type Model, type Real } from "./world.js"

export type ModelCommand = fc.AsyncCommand<Model, Real>

export const runModel = async (cmds: Iterable<ModelCommand>, policy?: Model["policy"]) => {
  const { model, real } = await startWorld(policy)
  try {
    await checkInvariants(model, real)
    await fc.asyncModelRun(() => ({ model, real }), cmds)
    await compareFreshRebuild(model, real)
  } finally {
    await closeWorld(real)
  }
}
