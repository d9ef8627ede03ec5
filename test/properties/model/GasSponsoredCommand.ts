// POST /vaults/{vaultId}/transaction-requests/gas-sponsorship-transfer (2026-03-20, through x-api-version): ETH or
// USDC from one ethereum address, the gas paid by another address of the vault; it races every other kind of
// request for the sender's balance and for the fee payer's ETH.
import type fc from "fast-check"
import { formatAmount } from "../../../src/domain/shared/money.js"
import type { FeePriority } from "../../../src/domain/chains/index.js"
import type { TestAsset } from "../../../src/testing/arbitraries.js"
import { submitRequest } from "./requests.js"
import { pickFrom, type Model, type Real } from "./world.js"

const onEthereum = (m: Readonly<Model>) => m.addresses.filter((a) => a.chain === "ethereum/sepolia")

export class GasSponsoredCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly asset: TestAsset,
    readonly from: number,
    readonly payer: number,
    readonly amount: bigint,
    readonly feePriority: FeePriority,
  ) {}
  check = (m: Readonly<Model>) => onEthereum(m).length >= 2
  async run(m: Model, r: Real) {
    const addresses = onEthereum(m)
    const sender = pickFrom(addresses, this.from)!
    const payer = pickFrom(
      addresses.filter((a) => a !== sender),
      this.payer,
    )!
    const a = this.asset
    await submitRequest(m, r, "gas-sponsored", a, {
      sender: sender.address,
      feePayer: payer.address,
      path: `/vaults/${r.vaultId}/transaction-requests/gas-sponsorship-transfer`,
      version: "2026-03-20",
      item: {
        vaultAccountId: sender.account,
        assetId: a.assetId,
        fromAddress: sender.address,
        toAddress: a.external,
        amount: formatAmount(this.amount, a.decimals),
        feePayer: payer.address,
        feePriority: this.feePriority,
        note: "model",
      },
      amount: this.amount,
    })
  }
  toString = () =>
    `gasSponsored(${formatAmount(this.amount, this.asset.decimals)} ${this.asset.symbol} from ethereum address #${this.from}, gas by #${this.payer}, ${this.feePriority})`
}
