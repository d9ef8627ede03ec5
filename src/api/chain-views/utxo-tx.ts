// A UTXO chain's transaction as inputs and outputs: a withdrawal's inputs, recipients and change are its request's
// (the custody API's); a deposit spends one output of its external sender, funded from outside the simulation.
import { sha256 } from "@noble/hashes/sha2.js"
import type { TxRequestsModel } from "../../projections/transaction-requests.js"
import type { ChainTx } from "./chain-tx.js"

export interface Output {
  readonly address: string
  readonly value: bigint
}
export interface Input {
  readonly txid: string
  readonly vout: number
  readonly prevout: Output
}
export interface UtxoTx {
  readonly tx: ChainTx
  readonly vin: ReadonlyArray<Input>
  readonly vout: ReadonlyArray<Output>
  readonly fee: bigint
}

/** The outpoint an external sender's deposit spends: a transaction outside the simulation, named from the deposit's id. */
const externalTxid = (txid: string) => Buffer.from(sha256(new TextEncoder().encode(`custody-sim external ${txid}`))).toString("hex")

export const utxoTx = (requests: TxRequestsModel, tx: ChainTx): UtxoTx => {
  const t = tx.transfer
  const draft = t.kind === "withdrawal" ? requests.byTransactionId.get(t.transactionId)?.draft : undefined
  if (draft === undefined || draft.inputs.length === 0) {
    const value = BigInt(t.amount)
    return {
      tx,
      vin: [{ txid: externalTxid(t.transactionId), vout: 0, prevout: { address: t.from, value: value + tx.fee } }],
      vout: [{ address: t.to, value }],
      fee: tx.fee,
    }
  }
  const vin = draft.inputs.map((i) => ({ txid: i.transactionId, vout: i.vout, prevout: { address: i.address, value: BigInt(i.amount) } }))
  const vout: Array<Output> = draft.recipients.map((r) => ({ address: r.address, value: BigInt(r.amount) }))
  if (draft.change !== null && BigInt(draft.change.amount) > 0n)
    vout.push({ address: draft.change.address, value: BigInt(draft.change.amount) })
  const fee = vin.reduce((a, i) => a + i.prevout.value, 0n) - vout.reduce((a, o) => a + o.value, 0n)
  return { tx, vin, vout, fee }
}
