// eth_getLogs' answers read from a chain's cache: the logs a filter can match (the shortest of the lists its
// conditions name), those of the block range that pass it, written as UTF-8 JSON from each log's bytes (written once,
// when it was mined). A whole answer is kept for the next poll that asks the same: a cache's logs only grow at the
// end, so one filter over the same logs is the same answer; a revert, a reset or a replay installs another cache, and
// with it no kept answer.
import type { ChainCache } from "./chain-cache.js"
import type { EvmLog } from "./chain-tx.js"
import { firstAtOrAbove } from "./steps.js"

/** What eth_getLogs filters by: contracts (null: any), and per topic position the values wanted (null: any). */
export interface LogFilter {
  readonly addresses: ReadonlySet<string> | null
  readonly topics: ReadonlyArray<ReadonlyArray<string> | null>
}

/** How many bytes of answers a chain keeps, the least recently read dropped first. */
const KEPT_BYTES = 16 * 1024 * 1024

const OPEN = Buffer.from("[")
const COMMA = Buffer.from(",")
const CLOSE = Buffer.from("]")

/** The logs' indices a filter can match: the shortest list one of its conditions names (undefined: no condition). */
const candidates = (c: ChainCache, f: LogFilter): ReadonlyArray<number> | undefined => {
  const lists: Array<ReadonlyArray<number>> = []
  const union = (keys: Iterable<string>) => {
    const parts = [...keys].map((k) => c.logsBy.get(k) ?? [])
    lists.push(parts.length === 1 ? parts[0]! : parts.flat().sort((a, b) => a - b))
  }
  if (f.addresses !== null) union([...f.addresses].map((a) => `a${a}`))
  f.topics.forEach((wanted, n) => {
    if (wanted !== null) union(wanted.map((t) => `${n}${t}`))
  })
  return lists.length === 0 ? undefined : lists.reduce((a, b) => (b.length < a.length ? b : a))
}

const matches = (log: EvmLog, f: LogFilter): boolean =>
  (f.addresses === null || f.addresses.has(log.address)) &&
  f.topics.every((wanted, i) => wanted === null || (log.topics[i] !== undefined && wanted.includes(log.topics[i]!.toLowerCase())))

const filterKey = (f: LogFilter): string =>
  `${f.addresses === null ? "*" : [...f.addresses].sort().join(",")} ${f.topics.map((t) => (t === null ? "*" : [...t].sort().join(","))).join(" ")}`

/** The logs numbered from `first` up to `end` (global indices) that pass the filter, as a JSON list. */
const written = (c: ChainCache, f: LogFilter, first: number, end: number): Uint8Array => {
  const list = candidates(c, f)
  const parts: Array<Uint8Array> = [OPEN]
  const take = (i: number) => {
    if (!matches(c.logs[i]!, f)) return
    if (parts.length > 1) parts.push(COMMA)
    parts.push(c.logJson[i]!)
  }
  if (list === undefined) for (let i = first; i < end; i++) take(i)
  else for (let k = firstAtOrAbove(list, first); k < list.length && list[k]! < end; k++) take(list[k]!)
  parts.push(CLOSE)
  return Buffer.concat(parts)
}

/** The mined logs from block `from` to block `to` that pass the filter, in block order, as UTF-8 JSON. */
export const logsAnswer = (c: ChainCache, f: LogFilter, from: number, to: number): Uint8Array => {
  const first = firstAtOrAbove(c.logHeights, from)
  const end = firstAtOrAbove(c.logHeights, to + 1)
  if (first >= end) return Buffer.concat([OPEN, CLOSE])
  const key = `${first} ${end} ${filterKey(f)}`
  const kept = c.answers.get(key)
  if (kept !== undefined) {
    c.answers.delete(key)
    c.answers.set(key, kept)
    return kept
  }
  const answer = written(c, f, first, end)
  if (answer.length > KEPT_BYTES) return answer
  c.answers.set(key, answer)
  c.answerBytes += answer.length
  for (const [k, v] of c.answers) {
    if (c.answerBytes <= KEPT_BYTES) break
    c.answers.delete(k)
    c.answerBytes -= v.length
  }
  return answer
}
