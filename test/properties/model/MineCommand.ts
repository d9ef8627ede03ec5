// POST /_sim/chains/{blockchain}/{network}/mine: exactly `blocks` new blocks when mining is manual or automatic.
import type fc from "fast-check"
import { expect } from "vitest"
import { checkInvariants } from "./invariants.js"
import type { ChainKey, Model, Real } from "./world.js"

export class MineCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly chain: ChainKey,
    readonly blocks: number,
  ) {}
  check = () => true
  async run(m: Model, r: Real) {
    const before = r.observed.heights.get(this.chain) ?? 0
    const res = await r.sim.admin<{ height: number }>("POST", `/_sim/chains/${this.chain}/mine`, { blocks: this.blocks })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    if (m.mining.get(this.chain)!.mode === "interval") expect(res.body.height).toBeGreaterThanOrEqual(before + this.blocks)
    else expect(res.body.height).toBe(before + this.blocks)
    await checkInvariants(m, r)
  }
  toString = () => `mine(${this.chain}, ${this.blocks})`
}
