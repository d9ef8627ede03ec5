// POST /_sim/deposits: an external deposit to one of the model's addresses on the asset's chain (held or not:
// a deposit of an asset not added waits for it).
import type fc from "fast-check"
import { expect } from "vitest"
import { formatAmount } from "../../../src/domain/shared/money.js"
import type { TestAsset } from "../../../src/testing/arbitraries.js"
import { checkInvariants } from "./invariants.js"
import { chainKey, pickFrom, type Model, type Real } from "./world.js"

export class DepositCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly asset: TestAsset,
    readonly to: number,
    readonly amount: bigint,
  ) {}
  check = (m: Readonly<Model>) => m.addresses.some((a) => a.chain === chainKey(this.asset))
  async run(m: Model, r: Real) {
    const address = pickFrom(
      m.addresses.filter((a) => a.chain === chainKey(this.asset)),
      this.to,
    )!.address
    const a = this.asset
    const res = await r.sim.admin<{ transactionId: string }>("POST", "/_sim/deposits", {
      blockchain: a.blockchain,
      network: a.network,
      address,
      assetId: a.assetId,
      amount: formatAmount(this.amount, a.decimals),
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    m.deposits.push({ transactionId: res.body.transactionId, asset: a, address, amount: this.amount })
    await checkInvariants(m, r)
  }
  toString = () => `deposit(${formatAmount(this.amount, this.asset.decimals)} ${this.asset.symbol} to address #${this.to})`
}
