// Where each chain's height changed along the log, for the timeline: the height the chain view answers as of a
// position, so that the timeline's "marked block" and the chain's height agree at every position and now.
import { chainKey, heightAt } from "../../chain-sim/index.js"
import { countAtOrBefore } from "../../projections/storage/at-or-before.js"
import type { ApiDeps } from "../deps.js"

export interface BlockMark {
  readonly position: number
  readonly chain: string
  readonly height: number
}

/**
 * One chain's changes of height: its recorded blocks, and on an interval schedule the blocks due by each position's
 * simulated time (they are not recorded one by one), each marked at the first position that holds it. The walk
 * jumps from a due block to the position whose time reaches the next one, so it costs a step per change at most.
 */
const chainMarks = (deps: ApiDeps, blockchain: string, network: string): ReadonlyArray<BlockMark> => {
  const m = deps.sim.models
  const chain = `${blockchain}/${network}`
  const entries = m.chains.chain(chainKey(blockchain, network))?.state.entries() ?? []
  const marks: Array<BlockMark> = []
  let last = 0 // a chain is at height 0 until it records anything
  for (let i = 0; i < entries.length; i++) {
    const [from, s] = entries[i]!
    const until = i + 1 < entries.length ? entries[i + 1]![0] : m.position + 1n
    for (let p = from; p < until; ) {
      const height = heightAt(s.schedule, s.height, m.timeline.timeAt(p) ?? deps.sim.clock.now())
      if (height !== last) marks.push({ position: Number(p), chain, height })
      last = height
      if (s.schedule.mode !== "interval") break
      const due = s.schedule.anchorAt + (height + 1 - s.schedule.anchorHeight) * s.schedule.intervalSeconds * 1000
      // The first position whose time reaches the next block: the one after the last position before that time.
      const next = m.timeline.positionAtTime(due - 1) + 1n
      p = next > p ? next : p + 1n
    }
  }
  return marks
}

/** Every chain's changes of height, in log order. */
export const blockMarks = (deps: ApiDeps): ReadonlyArray<BlockMark> =>
  [...deps.sim.models.chains.chains.values()]
    .flatMap((c) => chainMarks(deps, c.blockchain, c.network))
    .sort((a, b) => a.position - b.position)

/** The last change at or before `position` (undefined: none yet). */
export const markAt = (marks: ReadonlyArray<BlockMark>, position: number): BlockMark | undefined =>
  marks[countAtOrBefore(marks, marks.length, (xs, i) => xs[i]!.position, position) - 1]
