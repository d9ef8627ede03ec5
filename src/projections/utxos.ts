// UTXO read model (GET /vaults/{vaultId}/utxos): every output the vault was credited on a UTXO chain, in the order
// credited, with when it was spent and which open request holds it, as of any position.
import type { LedgerEvent } from "../domain/ledger/index.js"
import type { TxRequestEvent } from "../domain/transaction-request/index.js"
import type { StoredOf } from "../events/stored-event.js"
import { CreationOrder, History, Once } from "./storage/history.js"
import type { AsOf } from "./projection.js"

/** `transactionId:vout`, the outpoint as wallets write it: the listing's cursor and the input name of utxo-transfer. */
export const utxoIdOf = (transactionId: string, vout: number): string => `${transactionId}:${vout}`

export interface UtxoRecord {
  readonly utxoId: string
  readonly vaultId: string
  readonly blockchain: string
  readonly network: string
  readonly address: string
  readonly assetId: string
  readonly transactionId: string
  readonly vout: number
  readonly amount: bigint
  /** Simulated time it was credited (confirmed), UNIX ms. */
  readonly createdAtMs: number
  /** The transaction that spent it. */
  readonly spent: Once<string>
  /** The open transaction request holding it (null once released or spent). */
  readonly reserved: History<string | null>
}

export const utxosFoldTypes = [
  "DepositCredited",
  "TxRequestCreated",
  "TxRequestRejected",
  "TxRequestFailed",
  "TxRequestMined",
] as const satisfies ReadonlyArray<(LedgerEvent | TxRequestEvent)["type"]>

export class UtxosModel {
  readonly byId = new Map<string, UtxoRecord>()
  readonly byVault = new Map<string, CreationOrder<UtxoRecord>>()
  /** Inputs of each request that holds outputs, until it is mined, rejected or failed. */
  private readonly held = new Map<string, ReadonlyArray<string>>()

  list(vaultId: string, asOf: AsOf): ReadonlyArray<UtxoRecord> {
    return this.byVault.get(vaultId)?.upTo(asOf) ?? []
  }

  find(utxoId: string, asOf: AsOf): UtxoRecord | undefined {
    const u = this.byId.get(utxoId)
    return u === undefined || (asOf !== undefined && u.reserved.at(asOf) === undefined) ? undefined : u
  }

  private add(position: bigint, u: Omit<UtxoRecord, "spent" | "reserved">): void {
    if (this.byId.has(u.utxoId)) return
    const reserved = new History<string | null>()
    reserved.set(position, null)
    const record: UtxoRecord = { ...u, spent: new Once<string>(), reserved }
    this.byId.set(u.utxoId, record)
    let list = this.byVault.get(u.vaultId)
    if (list === undefined) this.byVault.set(u.vaultId, (list = new CreationOrder()))
    list.push(position, record)
  }

  private release(position: bigint, requestId: string): ReadonlyArray<string> {
    const inputs = this.held.get(requestId) ?? []
    this.held.delete(requestId)
    for (const id of inputs) {
      const u = this.byId.get(id)
      if (u !== undefined && u.reserved.latest() === requestId) u.reserved.set(position, null)
    }
    return inputs
  }

  apply(event: StoredOf<(typeof utxosFoldTypes)[number]>): void {
    const position = event.position
    switch (event.type) {
      case "DepositCredited": {
        const d = event.data
        if (d.vout === null) return
        this.add(position, {
          utxoId: utxoIdOf(d.transactionId, d.vout),
          vaultId: d.vaultId,
          blockchain: d.blockchain,
          network: d.network,
          address: d.address,
          assetId: d.assetId,
          transactionId: d.transactionId,
          vout: d.vout,
          amount: BigInt(d.amount),
          createdAtMs: d.at,
        })
        return
      }
      case "TxRequestCreated": {
        if (event.data.inputs.length === 0) return
        const ids = event.data.inputs.map((i) => utxoIdOf(i.transactionId, i.vout))
        this.held.set(event.data.requestId, ids)
        for (const id of ids) this.byId.get(id)?.reserved.set(position, event.data.requestId)
        return
      }
      case "TxRequestRejected":
      case "TxRequestFailed":
        this.release(position, event.data.requestId)
        return
      case "TxRequestMined": {
        const d = event.data
        const inputs = this.release(position, d.requestId)
        if (!d.withErrors) for (const id of inputs) this.byId.get(id)?.spent.set(position, d.transactionId)
        for (const c of d.credits)
          this.add(position, {
            utxoId: utxoIdOf(d.transactionId, c.vout),
            vaultId: d.vaultId,
            blockchain: d.blockchain,
            network: d.network,
            address: c.address,
            assetId: c.assetId,
            transactionId: d.transactionId,
            vout: c.vout,
            amount: BigInt(c.amount),
            createdAtMs: d.at,
          })
        return
      }
      default:
        return
    }
  }
}
