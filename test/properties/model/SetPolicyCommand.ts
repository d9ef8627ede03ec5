// PUT /_sim/vaults/{vaultId}/approval-policy: auto (requests broadcast at once) or manual with one or two levels.
import type fc from "fast-check"
import { expect } from "vitest"
import { checkInvariants } from "./invariants.js"
import type { Model, Real } from "./world.js"

export class SetPolicyCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly policy: Model["policy"]) {}
  check = () => true
  async run(m: Model, r: Real) {
    const res = await r.sim.admin("PUT", `/_sim/vaults/${r.vaultId}/approval-policy`, this.policy)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    m.policy = this.policy
    await checkInvariants(m, r)
  }
  toString = () => `setPolicy(${this.policy.mode}${this.policy.mode === "manual" ? `, ${this.policy.levels} level(s)` : ""})`
}
