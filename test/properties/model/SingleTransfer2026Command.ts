// single-transfer at 2026-03-20 (through x-api-version) with its fee ceiling: the fee approximate-fee answers for
// the same transfer, that fee as maxFee (accepted when affordable), or one base unit less (refused with 400
// MAX_FEE_EXCEEDED, writing nothing). It races every other kind for the sender's balance.
import type fc from "fast-check"
import { expect } from "vitest"
import { findAsset, nativeAsset } from "../../../src/domain/chains/index.js"
import { formatAmount, parseAmount } from "../../../src/domain/shared/money.js"
import type { FeePriority } from "../../../src/domain/chains/index.js"
import type { TestAsset } from "../../../src/testing/arbitraries.js"
import { checkInvariants } from "./invariants.js"
import { submitRequest } from "./requests.js"
import { chainKey, pickFrom, type Model, type Real } from "./world.js"

export type Ceiling = "none" | "estimate" | "below"

export class SingleTransfer2026Command implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly asset: TestAsset,
    readonly from: number,
    readonly amount: bigint,
    readonly feePriority: FeePriority,
    readonly ceiling: Ceiling,
  ) {}
  check = (m: Readonly<Model>) => m.addresses.some((a) => a.chain === chainKey(this.asset))
  async run(m: Model, r: Real) {
    const sender = pickFrom(
      m.addresses.filter((a) => a.chain === chainKey(this.asset)),
      this.from,
    )!
    const a = this.asset
    const transfer = {
      vaultAccountId: sender.account,
      assetId: a.assetId,
      fromAddress: sender.address,
      toAddress: a.external,
      amount: formatAmount(this.amount, a.decimals),
      feePriority: this.feePriority,
    }
    const headers = { "x-api-version": "2026-03-20" }
    const estimate = await r.client.call<{ item: { fee: { amount: string } } }>("POST", `/vaults/${r.vaultId}/approximate-fee`, {
      item: { transactionType: "single", ...transfer },
      headers,
    })
    expect(estimate.status, JSON.stringify(estimate.body)).toBe(200)
    const sent = findAsset(a.assetId)!
    const coin = nativeAsset(sent.blockchain, sent.network)!
    const fee = parseAmount(estimate.body.data.item.fee.amount, coin.decimals)
    if (!fee.ok) throw new Error(`estimate ${estimate.body.data.item.fee.amount} is not an amount of ${coin.unit}`)
    // A sender without the asset (or its chain's coin) is refused for that first, whatever the ceiling.
    const holds = sender.assets.has(a.symbol) && sender.assets.has(coin.symbol)
    if (this.ceiling === "below" && fee.value > 0n && holds) {
      const refused = await r.client.call("POST", `/vaults/${r.vaultId}/transaction-requests/single-transfer`, {
        item: { ...transfer, note: "model", maxFee: formatAmount(fee.value - 1n, coin.decimals) },
        headers,
      })
      expect([refused.status, refused.ok ? "" : refused.body.error.code]).toEqual([400, "MAX_FEE_EXCEEDED"])
      const head = await r.sim.admin<{ position: number }>("GET", "/_sim/health")
      expect(head.body.position, "a refused request writes nothing").toBe(r.observed.position)
      return checkInvariants(m, r)
    }
    await submitRequest(m, r, "single-transfer", a, {
      sender: sender.address,
      path: `/vaults/${r.vaultId}/transaction-requests/single-transfer`,
      version: "2026-03-20",
      item: { ...transfer, note: "model", ...(this.ceiling === "none" ? {} : { maxFee: estimate.body.data.item.fee.amount }) },
      amount: this.amount,
    })
  }
  toString = () =>
    `singleTransfer2026(${formatAmount(this.amount, this.asset.decimals)} ${this.asset.symbol} from address #${this.from}, ${this.feePriority}, maxFee ${this.ceiling})`
}
