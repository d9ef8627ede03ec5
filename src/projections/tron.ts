// Tron resources read model: each tron chain's stakes, delegations, resource usage and allowances as of every
// position (folded by the chain's own rule, applyExecution), and each executed transaction by id.
import { findNetwork } from "../domain/chains/index.js"
import type { ChainEvent } from "../chain-sim/events.js"
import { applyExecution, EMPTY_LEDGER, type TronExecution, type TronLedger } from "../chain-sim/tron.js"
import type { StoredOf } from "../events/stored-event.js"
import { splitChain } from "./chains.js"
import { History } from "./storage/history.js"
import type { AsOf } from "./projection.js"

export const tronFoldTypes = ["ChainTxExecuted"] as const satisfies ReadonlyArray<ChainEvent["type"]>

export class TronModel {
  readonly ledgers = new Map<string, History<TronLedger>>()
  /** Executions by transaction id: what the settlement of a mined request reads. */
  readonly executions = new Map<string, TronExecution>()

  ledger(chain: string, asOf: AsOf): TronLedger {
    return this.ledgers.get(chain)?.at(asOf) ?? EMPTY_LEDGER
  }

  apply(event: StoredOf<(typeof tronFoldTypes)[number]>): void {
    if (event.type !== "ChainTxExecuted") return
    const { chain, at: _at, ...x } = event.data
    const n = findNetwork(...splitChain(chain))
    if (n === undefined) return
    let h = this.ledgers.get(chain)
    if (h === undefined) this.ledgers.set(chain, (h = new History()))
    h.set(event.position, applyExecution(n, h.latest() ?? EMPTY_LEDGER, x))
    this.executions.set(x.transactionId, x)
  }
}
