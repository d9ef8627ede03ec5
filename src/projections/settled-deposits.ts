// Settled deposits: per chain, how many of its mined deposits, from the first, are all credited. After a start the
// deposit process manager walks the mined deposits from there instead of from the first: every one before it is
// credited already, so offering it again would credit nothing (its vault's decider skips a credited deposit), and a
// restart from a checkpoint settles only what the log's tail brought. A deposit not credited (held for an asset the
// address does not hold, or to an address outside the workspace) keeps the count at it until it is credited.
import type { StoredOf } from "../events/stored-event.js"
import type { ChainsModel } from "./chains.js"
import { keepAside } from "./storage/not-state.js"

export const settledDepositsFoldTypes = ["ChainBlocksMined", "DepositCredited"] as const

interface ChainDeposits {
  /** Mined deposits seen (the chain's list is this long). */
  seen: number
  /** Every mined deposit before this index is credited. */
  through: number
  /** Indexes at or beyond `through` already credited. */
  readonly beyond: Set<number>
  /** Mined deposits not credited yet: their transfer's row → their index. */
  readonly open: Map<number, number>
  /** The rare deposit a later block names again while it is open: its other indexes, by row. */
  readonly again: Map<number, Array<number>>
}

export class SettledDeposits {
  /** By chain (a handful: a credit looks its row up in each). */
  readonly chains = new Map<string, ChainDeposits>()

  constructor(private readonly transfers: ChainsModel) {}

  /**
   * The chains' entries in the Map's order: a credit looks its row up in each, and a Map's iterator would be an object
   * per credit. Not state (a non-enumerable property, made again from the Map when its size differs).
   */
  declare private order: Array<ChainDeposits> | undefined

  private inOrder(): ReadonlyArray<ChainDeposits> {
    let order = this.order
    if (order === undefined || order.length !== this.chains.size) {
      order = keepAside(this, "order", [...this.chains.values()])
    }
    return order
  }

  /** The index the walk of a chain's mined deposits may start at: every deposit before it is credited. */
  through(chain: string): number {
    return this.chains.get(chain)?.through ?? 0
  }

  private mark(c: ChainDeposits, index: number): void {
    if (index !== c.through) {
      c.beyond.add(index)
      return
    }
    c.through++
    while (c.beyond.delete(c.through)) c.through++
  }

  apply(event: StoredOf<(typeof settledDepositsFoldTypes)[number]>): void {
    switch (event.type) {
      case "ChainBlocksMined": {
        // The chains model has listed the block's deposits already (its fold comes first).
        const list = this.transfers.chain(event.data.chain)?.minedDeposits
        if (list === undefined) return
        let c = this.chains.get(event.data.chain)
        if (c === undefined)
          this.chains.set(event.data.chain, (c = { seen: 0, through: 0, beyond: new Set(), open: new Map(), again: new Map() }))
        for (; c.seen < list.length; c.seen++) {
          // Named again after it was credited, a deposit stays open here (no second credit comes): the walk starts at
          // it, and its decider skips it. Correct, and rare enough not to keep every credited row to tell.
          const row = list.rows.values[c.seen]!
          if (!c.open.has(row)) c.open.set(row, c.seen)
          else {
            const more = c.again.get(row)
            if (more === undefined) c.again.set(row, [c.seen])
            else more.push(c.seen)
          }
        }
        return
      }
      case "DepositCredited": {
        // A transaction id names one transfer, so one deposit (one address, one output).
        const row = this.transfers.rowOf(event.data.transactionId)
        if (row < 0) return
        const all = this.inOrder()
        for (let k = 0; k < all.length; k++) {
          const c = all[k]!
          const index = c.open.get(row)
          if (index === undefined) continue
          c.open.delete(row)
          this.mark(c, index)
          const more = c.again.get(row)
          if (more !== undefined) {
            c.again.delete(row)
            for (const i of more) this.mark(c, i)
          }
          return
        }
        return
      }
      default:
        return
    }
  }
}
