// POST /vaults/{vaultId}/bitcoin/testnet/transaction-requests (#17): the vault's outputs pay one or two recipients,
// the change goes to a new change address.
import type fc from "fast-check"
import { formatAmount } from "../../../src/domain/shared/money.js"
import type { FeePriority } from "../../../src/domain/chains/index.js"
import { findTestAsset } from "../../../src/testing/arbitraries.js"
import { submitRequest } from "./requests.js"
import type { Model, Real } from "./world.js"

const BTC = findTestAsset("BTC")
const RECIPIENTS = [BTC.external, "mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn"]

export class UtxoRequestCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly amounts: ReadonlyArray<bigint>,
    readonly feePriority: FeePriority,
    readonly strategy: "minimize_dust" | "optimize_size" | undefined,
  ) {}
  check = () => true
  async run(m: Model, r: Real) {
    await submitRequest(m, r, "utxo", BTC, {
      sender: null,
      path: `/vaults/${r.vaultId}/bitcoin/testnet/transaction-requests`,
      item: {
        feePriority: this.feePriority,
        recipients: this.amounts.map((x, i) => ({ address: RECIPIENTS[i % RECIPIENTS.length], amount: formatAmount(x, BTC.decimals) })),
        ...(this.strategy !== undefined ? { prepareStrategy: this.strategy } : {}),
      },
      amount: this.amounts.reduce((s, x) => s + x, 0n),
    })
  }
  toString = () =>
    `utxoRequest([${this.amounts.map((x) => formatAmount(x, BTC.decimals)).join(", ")}] BTC, ${this.feePriority}${this.strategy !== undefined ? `, ${this.strategy}` : ""})`
}
