import fc from "fast-check"
import { it } from "vitest"
import { commandSequences } from "./properties/model/commands.js"
import { checkInvariants } from "./properties/model/invariants.js"
import { closeWorld, startWorld } from "./properties/model/world.js"
it("stats", async () => {
  const seen = new Map<string, number>()
  const bump = (k: string) => seen.set(k, (seen.get(k) ?? 0) + 1)
  let cmdsTotal = 0
  for (const cmds of fc.sample(commandSequences(), { numRuns: 40, seed: 3 })) {
    const { model, real } = await startWorld()
    await checkInvariants(model, real)
    const list = [...cmds]
    await fc.asyncModelRun(() => ({ model, real }), list)
    cmdsTotal += list.filter(c => c.check(model)).length
    for (const q of model.requests) bump(`${q.kind}:${q.status}`)
    bump(`credited:${real.observed.credited.size > 0}`)
    bump(`deposits:${model.deposits.length}`.slice(0, 12))
    await closeWorld(real)
  }
  console.log(cmdsTotal, [...seen].sort().map(([k, v]) => `${k}=${v}`).join("\n"))
}, 300000)
