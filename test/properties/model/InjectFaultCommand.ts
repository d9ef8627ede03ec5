// POST /_sim/chains/{blockchain}/{network}/faults: the chain's next withdrawal fails to broadcast, or is mined
// but fails in execution (the fee is spent, nothing is sent; on UTXO chains it is refused at broadcast instead).
import type fc from "fast-check"
import { expect } from "vitest"
import { checkInvariants } from "./invariants.js"
import type { ChainKey, Model, Real } from "./world.js"

export class InjectFaultCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly chain: ChainKey,
    readonly kind: "broadcast-failure" | "execution-failure",
  ) {}
  check = () => true
  async run(m: Model, r: Real) {
    const res = await r.sim.admin("POST", `/_sim/chains/${this.chain}/faults`, { kind: this.kind })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    m.faults.get(this.chain)![this.kind]++
    await checkInvariants(m, r)
  }
  toString = () => `injectFault(${this.chain}, ${this.kind})`
}
