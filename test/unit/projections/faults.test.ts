// The faults read model over the fault use cases: faults in force with their hits, in the order added; a hit past
// `times` is refused and not counted; a clear empties it; a revert drops the faults added and the hits recorded after the snapshot.
import { Exit } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { addFault, clearFaults, recordFaultHit, removeFault } from "../../../src/commands/faults.js"
import { startHarness, type Harness } from "../../support/harness.js"

let h: Harness | undefined
afterEach(async () => h?.close())

const schedule = { times: null, every: null, probability: null, seed: null }
const fault = (times: number | null = null) =>
  addFault({ ...schedule, times, target: "api", match: { path: "/vaults" }, effect: { kind: "status", status: 503 } })
const hit = (faultId: string, call: number) => recordFaultHit({ faultId, call, requestId: `r${call}`, deliveryId: null })
const ok = async <A extends { readonly position: bigint }>(exit: Exit.Exit<A, unknown>): Promise<A> => {
  if (!Exit.isSuccess(exit)) throw new Error(`failed: ${String(exit.cause)}`)
  await h!.sim.run(h!.sim.runner.awaitPosition(exit.value.position))
  return exit.value
}

describe("the faults read model", () => {
  it("lists the faults in force with their hits and last call; a removed one goes", async () => {
    h = await startHarness()
    const sim = h.sim
    const a = (await ok(await sim.run(fault(2)))).faultId
    const b = (await ok(await sim.run(fault()))).faultId
    await ok(await sim.run(hit(a, 1)))
    await ok(await sim.run(hit(a, 3)))
    const exhausted = await sim.run(hit(a, 4))
    expect(Exit.isFailure(exhausted) && JSON.stringify(exhausted.cause)).toContain("FaultExhausted")
    expect(sim.models.faults.all.map((f) => [f.definition.faultId, f.hits, f.lastCall])).toEqual([
      [a, 2, 3],
      [b, 0, 0],
    ])
    expect(sim.models.faults.api.length).toBe(2)
    expect(sim.models.faults.webhook).toEqual([])
    await ok(await sim.run(removeFault(a)))
    expect(sim.models.faults.all.map((f) => f.definition.faultId)).toEqual([b])
    await ok(await sim.run(clearFaults()))
    expect([sim.models.faults.all, sim.models.faults.api]).toEqual([[], []])
  })

  it("is reverted with the world: faults and hits after the snapshot are gone", async () => {
    h = await startHarness()
    const sim = h.sim
    const a = (await ok(await sim.run(fault()))).faultId
    const snap = await sim.snapshot()
    await ok(await sim.run(hit(a, 1)))
    await ok(await sim.run(fault()))
    expect(sim.models.faults.all.map((f) => f.hits)).toEqual([1, 0])
    await sim.revert(snap.id)
    expect(sim.models.faults.all.map((f) => [f.definition.faultId, f.hits])).toEqual([[a, 0]])
  })
})
