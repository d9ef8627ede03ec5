// A chain's schedule and recorded height as of each change (its configuration, each mined block): a row per change
// in columns, not an object per block. A million-event log mines tens of thousands of blocks; as objects, their
// records and the copies of the schedule they held were most of the objects a restart from a checkpoint made.
import type { ChainSchedule, MiningMode } from "../chain-sim/index.js"
import { countAtOrBefore, keyOfArray } from "./storage/at-or-before.js"
import { compactColumns, IntColumn, NumberColumn } from "./storage/columns.js"

/** The chain's state as of a change: made when read, from the row. */
export interface ChainStateAt {
  readonly schedule: ChainSchedule
  readonly height: number
}

/** What a configuration sets and a block leaves as it was. */
interface Configuration {
  readonly mode: MiningMode
  readonly intervalSeconds: number
  readonly confirmations: number
}

export class ChainStates {
  /** Where each change was recorded (positions never decrease; a second change at one position replaces the first). */
  readonly position = new NumberColumn()
  readonly height = new NumberColumn()
  readonly anchorHeight = new NumberColumn()
  readonly anchorAt = new NumberColumn()
  /** Index of the row's configuration in `configurations` (a chain is configured rarely; blocks keep the last one). */
  readonly configuration = new IntColumn()
  readonly configurations: Array<Configuration> = []

  get length(): number {
    return this.position.length
  }

  /** Records a configuration: its schedule, and the recorded height. */
  configure(at: bigint, schedule: ChainSchedule, height: number): void {
    this.configurations.push({ mode: schedule.mode, intervalSeconds: schedule.intervalSeconds, confirmations: schedule.confirmations })
    this.record(Number(at), this.configurations.length - 1, schedule.anchorHeight, schedule.anchorAt, height)
  }

  /** Records a block: the schedule as configured last, anchored at the block, and the recorded height. No-op before a configuration. */
  mined(at: bigint, anchorHeight: number, anchorAt: number, height: number): void {
    const last = this.length - 1
    if (last < 0) return
    this.record(Number(at), this.configuration.values[last]!, anchorHeight, anchorAt, height)
  }

  /** The latest recorded height (0 before a configuration). */
  latestHeight(): number {
    const last = this.length - 1
    return last < 0 ? 0 : this.height.values[last]!
  }

  /** The latest configuration's block interval (NaN before a configuration). */
  latestInterval(): number {
    const last = this.length - 1
    return last < 0 ? NaN : this.configurations[this.configuration.values[last]!]!.intervalSeconds
  }

  latest(): ChainStateAt | undefined {
    return this.length === 0 ? undefined : this.row(this.length - 1)
  }

  /** The state in force after the event at `asOf` (undefined before the first change). */
  at(asOf: bigint | undefined): ChainStateAt | undefined {
    if (asOf === undefined) return this.latest()
    const n = countAtOrBefore(this.position.values, this.length, keyOfArray, Number(asOf))
    return n === 0 ? undefined : this.row(n - 1)
  }

  entries(): ReadonlyArray<readonly [bigint, ChainStateAt]> {
    const out: Array<readonly [bigint, ChainStateAt]> = []
    for (let i = 0; i < this.length; i++) out.push([BigInt(this.position.values[i]!), this.row(i)])
    return out
  }

  /** Drops the columns' room for growth (before a checkpoint is written). */
  compact(): void {
    compactColumns(this)
  }

  private row(i: number): ChainStateAt {
    const c = this.configurations[this.configuration.values[i]!]!
    return {
      schedule: {
        mode: c.mode,
        intervalSeconds: c.intervalSeconds,
        confirmations: c.confirmations,
        anchorHeight: this.anchorHeight.values[i]!,
        anchorAt: this.anchorAt.values[i]!,
      },
      height: this.height.values[i]!,
    }
  }

  private record(position: number, configuration: number, anchorHeight: number, anchorAt: number, height: number): void {
    const last = this.length - 1
    if (last >= 0 && this.position.values[last] === position) {
      this.configuration.values[last] = configuration
      this.anchorHeight.values[last] = anchorHeight
      this.anchorAt.values[last] = anchorAt
      this.height.values[last] = height
      return
    }
    this.position.push(position)
    this.configuration.push(configuration)
    this.anchorHeight.push(anchorHeight)
    this.anchorAt.push(anchorAt)
    this.height.push(height)
  }
}
