// POST /vaults/{vaultId}/vault-account (#3): a new account, at most three per run.
import type fc from "fast-check"
import { expect } from "vitest"
import { checkInvariants } from "./invariants.js"
import type { Model, Real } from "./world.js"

export class CreateAccountCommand implements fc.AsyncCommand<Model, Real> {
  check = (m: Readonly<Model>) => m.accounts.length < 3
  async run(m: Model, r: Real) {
    const res = await r.client.call<{ item: { vaultAccountId: string } }>("POST", `/vaults/${r.vaultId}/vault-account`, {
      item: { name: `account ${m.accounts.length}`, color: "#000000", isHiddenInDashboard: false },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    m.accounts.push(res.body.data.item.vaultAccountId)
    await checkInvariants(m, r)
  }
  toString = () => "createAccount()"
}
