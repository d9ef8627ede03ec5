// POST /vaults/{vaultId}/transaction-requests/single-transfer (#16): any account-based asset from an account address.
import type fc from "fast-check"
import { formatAmount } from "../../../src/domain/shared/money.js"
import type { FeePriority } from "../../../src/domain/chains/index.js"
import type { TestAsset } from "../../../src/testing/arbitraries.js"
import { submitRequest } from "./requests.js"
import { chainKey, pickFrom, type Model, type Real } from "./world.js"

export class SingleTransferCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly asset: TestAsset,
    readonly from: number,
    readonly amount: bigint,
    readonly feePriority: FeePriority,
  ) {}
  check = (m: Readonly<Model>) => m.addresses.some((a) => a.chain === chainKey(this.asset))
  async run(m: Model, r: Real) {
    const sender = pickFrom(
      m.addresses.filter((a) => a.chain === chainKey(this.asset)),
      this.from,
    )!
    const a = this.asset
    await submitRequest(m, r, "single-transfer", a, {
      sender: sender.address,
      path: `/vaults/${r.vaultId}/transaction-requests/single-transfer`,
      item: {
        vaultAccountId: sender.account,
        assetId: a.assetId,
        fromAddress: sender.address,
        toAddress: a.external,
        amount: formatAmount(this.amount, a.decimals),
        feePriority: this.feePriority,
      },
      amount: this.amount,
    })
  }
  toString = () =>
    `singleTransfer(${formatAmount(this.amount, this.asset.decimals)} ${this.asset.symbol} from address #${this.from}, ${this.feePriority})`
}
