// POST /vaults/{vaultId}/ethereum/sepolia/addresses/{address}/transaction-requests (#18): ETH from an address.
import type fc from "fast-check"
import { formatAmount } from "../../../src/domain/shared/money.js"
import type { FeePriority } from "../../../src/domain/chains/index.js"
import { findTestAsset } from "../../../src/testing/arbitraries.js"
import { submitRequest } from "./requests.js"
import { pickFrom, type Model, type Real } from "./world.js"

const ETH = findTestAsset("ETH")

export class EvmCoinRequestCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly from: number,
    readonly amount: bigint,
    readonly feePriority: FeePriority,
  ) {}
  check = (m: Readonly<Model>) => m.addresses.some((a) => a.chain === "ethereum/sepolia")
  async run(m: Model, r: Real) {
    const sender = pickFrom(
      m.addresses.filter((a) => a.chain === "ethereum/sepolia"),
      this.from,
    )!
    await submitRequest(m, r, "evm-coin", ETH, {
      sender: sender.address,
      path: `/vaults/${r.vaultId}/ethereum/sepolia/addresses/${sender.address}/transaction-requests`,
      item: { amount: formatAmount(this.amount, ETH.decimals), feePriority: this.feePriority, recipientAddress: ETH.external },
      amount: this.amount,
    })
  }
  toString = () => `evmCoinRequest(${formatAmount(this.amount, ETH.decimals)} ETH from address #${this.from}, ${this.feePriority})`
}
