// Timeline: the simulated time of every position, to turn "as of time t" into a position.
import type { RecordedEvent } from "../store/event-store.js"
import type { Projection } from "./projection.js"

export class Timeline {
  private readonly positions: Array<bigint> = []
  private readonly times: Array<number> = []
  head = -1n
  headTime = 0

  record(event: RecordedEvent): void {
    const t = event.metadata.at
    this.head = event.position
    this.headTime = t
    const n = this.times.length
    // Times never decrease (the clock is monotonic); only changes of time are kept.
    if (n > 0 && this.times[n - 1] === t) this.positions[n - 1] = event.position
    else {
      this.positions.push(event.position)
      this.times.push(t)
    }
  }

  /** Last position whose simulated time is at or before `unixMs`; -1n when none. */
  positionAtTime(unixMs: number): bigint {
    let lo = 0
    let hi = this.times.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.times[mid]! <= unixMs) lo = mid + 1
      else hi = mid
    }
    return lo > 0 ? this.positions[lo - 1]! : -1n
  }

  /** Simulated time of the event at `position` (entries hold the last position of each run of equal times). */
  timeAt(position: bigint): number | undefined {
    let lo = 0
    let hi = this.positions.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.positions[mid]! < position) lo = mid + 1
      else hi = mid
    }
    return this.times[lo]
  }
}

export const timelineProjection: Projection<Timeline> = {
  name: "timeline",
  init: () => new Timeline(),
  evolve: (s, e) => s.record(e),
}
