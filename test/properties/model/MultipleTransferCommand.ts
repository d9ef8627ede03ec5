// POST /vaults/{vaultId}/transaction-requests/multiple-transfer (2026-03-20, through x-api-version): coin selection
// over one vault account's outputs in either spelling of either strategy, sometimes gross or under a fee ceiling.
import type fc from "fast-check"
import { formatAmount } from "../../../src/domain/shared/money.js"
import type { FeePriority } from "../../../src/domain/chains/index.js"
import { findTestAsset } from "../../../src/testing/arbitraries.js"
import { units } from "./invariants.js"
import { submitRequest } from "./requests.js"
import { UTXO_REFUSALS } from "./UtxoTransferCommand.js"
import { pickFrom, type Model, type Real } from "./world.js"

const BTC = findTestAsset("BTC")
export const STRATEGIES = ["minimize_dust", "optimize_size", "minimize-dust", "optimize-size"] as const

export class MultipleTransferCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly account: number,
    readonly amounts: ReadonlyArray<bigint>,
    readonly feePriority: FeePriority,
    readonly strategy: (typeof STRATEGIES)[number],
    readonly gross: boolean,
    readonly maxFee: bigint | undefined,
  ) {}
  check = () => true
  async run(m: Model, r: Real) {
    const vaultAccountId = pickFrom([r.vaultId, ...m.accounts], this.account)!
    await submitRequest(m, r, "multiple-transfer", BTC, {
      sender: null,
      path: `/vaults/${r.vaultId}/transaction-requests/multiple-transfer`,
      version: "2026-03-20",
      item: {
        vaultAccountId,
        assetId: BTC.assetId,
        feePriority: this.feePriority,
        prepareStrategy: this.strategy,
        note: "model",
        recipients: this.amounts.map((x) => ({ address: BTC.external, amount: formatAmount(x, BTC.decimals) })),
        ...(this.gross ? { gross: true } : {}),
        ...(this.maxFee !== undefined ? { maxFee: formatAmount(this.maxFee, BTC.decimals) } : {}),
      },
      amount: 0n,
      amountOf: (item) => units(item.totalTransactionAmount as string, BTC.decimals),
      refusals: UTXO_REFUSALS,
    })
  }
  toString = () =>
    `multipleTransfer(account #${this.account}, [${this.amounts.map((x) => formatAmount(x, BTC.decimals)).join(", ")}] BTC, ${this.feePriority}, ${this.strategy}${this.gross ? ", gross" : ""}${this.maxFee !== undefined ? `, maxFee ${this.maxFee}` : ""})`
}
