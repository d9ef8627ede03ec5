// PUT /_sim/chains/{blockchain}/{network}/mining: mode (auto, interval, manual) and confirmations required.
import type fc from "fast-check"
import { expect } from "vitest"
import type { MiningSettings } from "../../../src/testing/arbitraries.js"
import { checkInvariants } from "./invariants.js"
import type { ChainKey, Model, Real } from "./world.js"

export class SetMiningCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly chain: ChainKey,
    readonly settings: MiningSettings,
  ) {}
  check = () => true
  async run(m: Model, r: Real) {
    const res = await r.sim.admin<{ mode: string; confirmationsRequired: number }>(
      "PUT",
      `/_sim/chains/${this.chain}/mining`,
      this.settings,
    )
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect([res.body.mode, res.body.confirmationsRequired]).toEqual([this.settings.mode, this.settings.confirmations])
    m.mining.set(this.chain, this.settings)
    await checkInvariants(m, r)
  }
  toString = () => `setMining(${this.chain}, ${JSON.stringify(this.settings)})`
}
