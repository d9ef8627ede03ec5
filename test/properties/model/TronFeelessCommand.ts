// POST /vaults/{vaultId}/tron/nile/addresses/{address}/feeless-transaction-requests (#20): TRX, free bandwidth first.
import type fc from "fast-check"
import { formatAmount } from "../../../src/domain/shared/money.js"
import { findTestAsset } from "../../../src/testing/arbitraries.js"
import { submitRequest } from "./requests.js"
import { pickFrom, type Model, type Real } from "./world.js"

const TRX = findTestAsset("TRX")

export class TronFeelessCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly from: number,
    readonly amount: bigint,
  ) {}
  check = (m: Readonly<Model>) => m.addresses.some((a) => a.chain === "tron/nile")
  async run(m: Model, r: Real) {
    const sender = pickFrom(
      m.addresses.filter((a) => a.chain === "tron/nile"),
      this.from,
    )!
    await submitRequest(m, r, "tron-coin", TRX, {
      sender: sender.address,
      path: `/vaults/${r.vaultId}/tron/nile/addresses/${sender.address}/feeless-transaction-requests`,
      item: { amount: formatAmount(this.amount, TRX.decimals), recipientAddress: TRX.external },
      amount: this.amount,
    })
  }
  toString = () => `tronFeeless(${formatAmount(this.amount, TRX.decimals)} TRX from address #${this.from})`
}
