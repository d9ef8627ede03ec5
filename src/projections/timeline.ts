// Timeline: the simulated time of every position, to turn "as of time t" into a position.
import { countAtOrBefore, keyOfArray } from "./storage/at-or-before.js"

export class Timeline {
  private readonly positions: Array<bigint> = []
  private readonly times: Array<number> = []
  head = -1n
  /** Position of the first event; -1n before any. */
  first = -1n
  /** Events recorded: positions are the store's own (from 1 in SQLite and memory, commit positions on EventStoreDB), so they do not count. */
  count = 0
  /** Latest simulated time in the log so far (the clock restarts from here). */
  headTime = 0

  /** Records the event at `position`, written at simulated time `at` (its metadata's). */
  record(position: bigint, at: number): void {
    // A log written by several processes (a shared store) or imported may step back in time; the timeline keeps
    // the running maximum so that it stays sorted and "as of time t" is the longest prefix with no event after t.
    const t = this.times.length === 0 || at > this.headTime ? at : this.headTime
    if (this.count === 0) this.first = position
    this.head = position
    this.headTime = t
    this.count++
    const n = this.times.length
    // Only changes of time are kept: the entry of a run of equal times holds the run's last position.
    if (n > 0 && this.times[n - 1] === t) this.positions[n - 1] = position
    else {
      this.positions.push(position)
      this.times.push(t)
    }
  }

  /** Last position whose simulated time is at or before `unixMs`; -1n when none. */
  positionAtTime(unixMs: number): bigint {
    const n = countAtOrBefore(this.times, this.times.length, keyOfArray, unixMs)
    return n > 0 ? this.positions[n - 1]! : -1n
  }

  /** Simulated time in force at `position` (the running maximum up to it); undefined beyond the head. */
  timeAt(position: bigint): number | undefined {
    // The first entry at or after `position` (positions are integers): the one after those at or before position - 1.
    return this.times[countAtOrBefore(this.positions, this.positions.length, keyOfArray, position - 1n)]
  }
}
