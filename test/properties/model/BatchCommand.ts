// POST /vaults/{vaultId}/transaction-requests/batch (2026-03-20, EIP-7702, through x-api-version): calls in ETH and
// USDC from one ethereum address to external recipients, the gas paid by another address of the vault; all of it
// reserved at once, racing every other kind for the sender's ETH and USDC and for the fee payer's ETH.
import type fc from "fast-check"
import { formatAmount } from "../../../src/domain/shared/money.js"
import type { FeePriority } from "../../../src/domain/chains/index.js"
import { findTestAsset, type TestAsset } from "../../../src/testing/arbitraries.js"
import { submitRequest } from "./requests.js"
import { pickFrom, type Model, type Real } from "./world.js"

const ETH = findTestAsset("ETH")
const onEthereum = (m: Readonly<Model>) => m.addresses.filter((a) => a.chain === "ethereum/sepolia")

export class BatchCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly calls: ReadonlyArray<{ readonly asset: TestAsset; readonly amount: bigint }>,
    readonly from: number,
    readonly payer: number,
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
    await submitRequest(m, r, "batch", ETH, {
      sender: sender.address,
      feePayer: payer.address,
      calls: this.calls,
      path: `/vaults/${r.vaultId}/transaction-requests/batch`,
      version: "2026-03-20",
      item: {
        senderAddress: sender.address,
        feePayer: { address: payer.address, assetId: ETH.assetId },
        feePriority: this.feePriority,
        note: "model",
        recipients: this.calls.map((c) => ({
          address: c.asset.external,
          amount: formatAmount(c.amount, c.asset.decimals),
          assetId: c.asset.assetId,
        })),
      },
      amount: 0n,
    })
  }
  toString = () =>
    `batch(${this.calls.map((c) => `${formatAmount(c.amount, c.asset.decimals)} ${c.asset.symbol}`).join(" + ")} from ethereum address #${this.from}, gas by #${this.payer}, ${this.feePriority})`
}
