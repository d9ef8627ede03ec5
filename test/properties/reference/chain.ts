// A reference of one chain by the README's rules: heights from an anchor and an interval, a mempool whose
// transactions go into the first block due after they arrived (the next one after a re-anchoring), auto mining
// one block per transaction, manual mining on demand, faults consumed by withdrawals, each transaction taken once.
import type { ChainDefaults, MiningMode } from "../../../src/chain-sim/index.js"

export interface Pending {
  readonly id: string
  readonly at: number
  due: number
}

export class ChainReference {
  configured = false
  mode: MiningMode
  interval: number
  confirmations: number
  /** Height of the last recorded block, and the anchor the interval counts from. */
  h = 0
  h0 = 0
  t0 = 0
  readonly mempool: Array<Pending> = []
  readonly mined = new Map<string, number>()
  readonly faults = { "broadcast-failure": 0, "execution-failure": 0 }
  readonly failing = new Set<string>()
  readonly rejected = new Set<string>()
  /** Every transaction taken into the mempool (mined or not). */
  readonly taken = new Set<string>()

  constructor(readonly defaults: ChainDefaults) {
    this.mode = defaults.mode
    this.interval = defaults.intervalSeconds
    this.confirmations = defaults.confirmations
  }

  height(now: number): number {
    return this.mode === "interval" ? Math.max(this.h, this.h0 + Math.floor((now - this.t0) / (this.interval * 1000))) : this.h
  }

  private ensure(now: number) {
    if (this.configured) return
    this.configured = true
    this.t0 = now
  }

  private flush(now: number) {
    if (this.mode !== "interval") return
    const due = this.height(now)
    while (this.mempool.length > 0 && this.mempool[0]!.due <= due) {
      const tx = this.mempool.shift()!
      this.mined.set(tx.id, tx.due)
      this.h = Math.max(this.h, tx.due)
    }
  }

  private reanchor(height: number, now: number) {
    this.h = Math.max(this.h, height)
    this.h0 = height
    this.t0 = now
    for (const tx of this.mempool) tx.due = height + 1
  }

  /** Returns false when the command must be refused (and changes nothing then). */
  configure(now: number, c: { mode?: MiningMode; intervalSeconds?: number; confirmations?: number }): boolean {
    const interval = c.intervalSeconds ?? this.interval
    const confirmations = c.confirmations ?? this.confirmations
    if (!(interval >= 1) || !(confirmations >= 1)) return false
    this.ensure(now)
    this.flush(now)
    this.reanchor(this.height(now), now)
    this.mode = c.mode ?? this.mode
    this.interval = interval
    this.confirmations = confirmations
    return true
  }

  submit(now: number, id: string, withdrawal: boolean): void {
    this.ensure(now)
    this.flush(now)
    if (this.taken.has(id) || this.rejected.has(id)) return
    if (withdrawal && this.faults["broadcast-failure"] > 0) {
      this.faults["broadcast-failure"]--
      this.rejected.add(id)
      return
    }
    if (withdrawal && this.faults["execution-failure"] > 0) {
      this.faults["execution-failure"]--
      this.failing.add(id)
    }
    this.taken.add(id)
    this.mempool.push({ id, at: now, due: this.h0 + Math.floor((now - this.t0) / (this.interval * 1000)) + 1 })
    if (this.mode === "auto") this.mineAll(this.h + 1)
  }

  mine(now: number, blocks: number): boolean {
    if (!Number.isInteger(blocks) || blocks < 1) return false
    this.ensure(now)
    this.flush(now)
    const from = this.height(now) + 1
    this.mineAll(from)
    this.reanchor(from + blocks - 1, now)
    return true
  }

  fault(now: number, kind: keyof ChainReference["faults"], count: number): boolean {
    if (!Number.isInteger(count) || count < 1) return false
    this.ensure(now)
    this.faults[kind] += count
    return true
  }

  tick(now: number): void {
    this.ensure(now)
    this.flush(now)
  }

  private mineAll(height: number) {
    for (const tx of this.mempool.splice(0)) this.mined.set(tx.id, height)
    this.h = Math.max(this.h, height)
  }
}
