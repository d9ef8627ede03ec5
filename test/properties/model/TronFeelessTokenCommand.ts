// POST /vaults/{vaultId}/tron/nile/addresses/{address}/feeless-token-transaction-requests (#21): USDT, energy paid
// in TRX; a fee limit below the energy's cost ends mined-with-errors with the limit burned.
import type fc from "fast-check"
import { formatAmount } from "../../../src/domain/shared/money.js"
import { findTestAsset } from "../../../src/testing/arbitraries.js"
import { submitRequest } from "./requests.js"
import { pickFrom, type Model, type Real } from "./world.js"

const USDT = findTestAsset("USDT", "tron")
const TRX = findTestAsset("TRX")

export class TronFeelessTokenCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly from: number,
    readonly amount: bigint,
    /** SUN; every limit generated is below the 18.2 TRX a transfer's energy burns. */
    readonly feeLimit: bigint | undefined,
  ) {}
  check = (m: Readonly<Model>) => m.addresses.some((a) => a.chain === "tron/nile")
  async run(m: Model, r: Real) {
    const sender = pickFrom(
      m.addresses.filter((a) => a.chain === "tron/nile"),
      this.from,
    )!
    await submitRequest(m, r, "tron-token", USDT, {
      sender: sender.address,
      path: `/vaults/${r.vaultId}/tron/nile/addresses/${sender.address}/feeless-token-transaction-requests`,
      item: {
        amount: formatAmount(this.amount, USDT.decimals),
        recipientAddress: USDT.external,
        tokenIdentifier: USDT.contract,
        ...(this.feeLimit !== undefined ? { feeLimit: formatAmount(this.feeLimit, TRX.decimals) } : {}),
      },
      amount: this.amount,
      outOfEnergy: this.feeLimit !== undefined,
    })
  }
  toString = () =>
    `tronFeelessToken(${formatAmount(this.amount, USDT.decimals)} USDT from address #${this.from}${this.feeLimit !== undefined ? `, feeLimit ${formatAmount(this.feeLimit, TRX.decimals)} TRX` : ""})`
}
