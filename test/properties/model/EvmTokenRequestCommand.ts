// POST /vaults/{vaultId}/ethereum/sepolia/addresses/{address}/token-transaction-requests (#19): USDC, fee in ETH.
import type fc from "fast-check"
import { formatAmount } from "../../../src/domain/shared/money.js"
import type { FeePriority } from "../../../src/domain/chains/index.js"
import { findTestAsset } from "../../../src/testing/arbitraries.js"
import { submitRequest } from "./requests.js"
import { pickFrom, type Model, type Real } from "./world.js"

const USDC = findTestAsset("USDC", "ethereum")

export class EvmTokenRequestCommand implements fc.AsyncCommand<Model, Real> {
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
    await submitRequest(m, r, "evm-token", USDC, {
      sender: sender.address,
      path: `/vaults/${r.vaultId}/ethereum/sepolia/addresses/${sender.address}/token-transaction-requests`,
      item: {
        amount: formatAmount(this.amount, USDC.decimals),
        feePriority: this.feePriority,
        recipientAddress: USDC.external,
        tokenIdentifier: USDC.contract,
      },
      amount: this.amount,
    })
  }
  toString = () => `evmTokenRequest(${formatAmount(this.amount, USDC.decimals)} USDC from address #${this.from}, ${this.feePriority})`
}
