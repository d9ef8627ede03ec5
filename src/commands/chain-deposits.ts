// Use case of the simulated chains: an external deposit enters the mempool (mined at once in auto mode).
import { Effect } from "effect"
import { findAsset, type NetworkInfo } from "../domain/chains/index.js"
import type { BaseUnits } from "../domain/shared/money.js"
import { AddressDerivation, Ids } from "./services.js"
import { formatTxId } from "../chain-sim/formats.js"
import { transferFee } from "../domain/chains/fees.js"
import { submitTransfer } from "./chain-mining.js"

export interface DepositInput {
  readonly network: NetworkInfo
  readonly assetId: string
  readonly to: string
  readonly amount: BaseUnits
  readonly from?: string
}

/** An external deposit enters the mempool (and is mined at once in auto mode); returns its transaction id. */
export const submitDeposit = (input: DepositInput) =>
  Effect.gen(function* () {
    const ids = yield* Ids
    const n = input.network
    const recordId = yield* ids.next("transaction")
    const transactionId = formatTxId(n.family, (len) => ids.unrepeated(`txid:${recordId}`, len))
    // One of 256 external senders, so that their addresses (an elliptic-curve derivation each) can be reused.
    const external = Buffer.from(ids.bytes(`external:${recordId}`, 4)).readUInt32BE(0) & 0xff
    const from =
      input.from ??
      (yield* AddressDerivation).derive("external", n.blockchain, n.network, { account: 0, change: 0, index: external }).address
    const token = findAsset(input.assetId)?.type === "TOKEN"
    const r = yield* submitTransfer(n, {
      transactionId,
      recordId,
      kind: "deposit",
      assetId: input.assetId,
      from,
      to: input.to,
      amount: input.amount.toString(),
      fee: transferFee(n, token ? "token" : "coin").toString(),
      vout: n.family === "utxo" ? 0 : null,
    })
    return { ...r, transactionId, recordId }
  })
