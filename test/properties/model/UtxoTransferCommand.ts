// POST /vaults/{vaultId}/transaction-requests/utxo-transfer (2026-03-20, through x-api-version): outputs picked from
// the vault's listing — reserved ones included, so that it races every other UTXO kind for them — the change by
// default, to an account, to an address, or a fee payer; sometimes gross, sometimes under a fee ceiling.
import type fc from "fast-check"
import { formatAmount } from "../../../src/domain/shared/money.js"
import type { FeePriority } from "../../../src/domain/chains/index.js"
import { findTestAsset } from "../../../src/testing/arbitraries.js"
import { units } from "./invariants.js"
import { submitRequest } from "./requests.js"
import { pickFrom, type Model, type Real } from "./world.js"

const BTC = findTestAsset("BTC")
const RECIPIENTS = [BTC.external, "mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn"]
export type ChangeChoice = "default" | "account" | "address" | "feePayer"

export const UTXO_REFUSALS = ["409 utxo_reserved", "400 MAX_FEE_EXCEEDED", "400 invalid_data"]

export class UtxoTransferCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly inputs: ReadonlyArray<number>,
    readonly amounts: ReadonlyArray<bigint>,
    readonly feePriority: FeePriority,
    readonly gross: boolean,
    readonly change: ChangeChoice,
    readonly target: number,
    readonly maxFee: bigint | undefined,
  ) {}
  check = () => true
  async run(m: Model, r: Real) {
    const listed = await r.client.call<any>("GET", `/vaults/${r.vaultId}/utxos`, {
      query: { limit: "500" },
      headers: { "x-api-version": "2026-03-20" },
    })
    const utxos: Array<{ utxoId: string }> = listed.body.data.items
    const senders = [...new Set(this.inputs.map((i) => pickFrom(utxos, i)?.utxoId).filter((x): x is string => x !== undefined))]
    if (senders.length === 0) return
    const btcAddresses = m.addresses.filter((a) => a.chain === "bitcoin/testnet")
    const address = pickFrom(btcAddresses, this.target)?.address
    const account = pickFrom([r.vaultId, ...m.accounts], this.target)!
    const change =
      this.change === "account"
        ? { changeData: { vaultAccountId: account } }
        : this.change === "address" && address !== undefined
          ? { changeData: { address } }
          : this.change === "feePayer" && address !== undefined && !this.gross
            ? { feePayer: address }
            : {}
    await submitRequest(m, r, "utxo-transfer", BTC, {
      sender: null,
      path: `/vaults/${r.vaultId}/transaction-requests/utxo-transfer`,
      version: "2026-03-20",
      item: {
        assetId: BTC.assetId,
        feePriority: this.feePriority,
        note: "model",
        senders: senders.map((utxoId) => ({ utxoId })),
        recipients: this.amounts.map((x, i) => ({ address: RECIPIENTS[i % RECIPIENTS.length], amount: formatAmount(x, BTC.decimals) })),
        ...(this.gross ? { gross: true } : {}),
        ...(this.maxFee !== undefined ? { maxFee: formatAmount(this.maxFee, BTC.decimals) } : {}),
        ...change,
      },
      amount: 0n,
      amountOf: (item) => units(item.totalTransactionAmount as string, BTC.decimals),
      refusals: UTXO_REFUSALS,
    })
  }
  toString = () =>
    `utxoTransfer(outputs #${this.inputs.join(",#")} → [${this.amounts.map((x) => formatAmount(x, BTC.decimals)).join(", ")}] BTC, ${this.feePriority}${this.gross ? ", gross" : ""}, change ${this.change} #${this.target}${this.maxFee !== undefined ? `, maxFee ${this.maxFee}` : ""})`
}
