// POST /_sim/clock/advance: simulated time moves; interval chains mine what came due and everything settles.
import type fc from "fast-check"
import { expect } from "vitest"
import { checkInvariants } from "./invariants.js"
import type { Model, Real } from "./world.js"

export class AdvanceClockCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly seconds: number) {}
  check = () => true
  async run(m: Model, r: Real) {
    const res = await r.sim.admin("POST", "/_sim/clock/advance", { seconds: this.seconds })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    await checkInvariants(m, r)
  }
  toString = () => `advanceClock(${this.seconds}s)`
}
