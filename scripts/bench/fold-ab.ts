// The read models' folds of two source trees over the same generated log, alternated in one process: the median
// ratio of each pair of rounds (after's events per CPU-second over before's). On a machine whose cores neighbours
// take, separate runs of the replay benchmark or the rebuild profiler swing by more than a fold change is worth; a
// pair of rounds run back to back sees the same neighbours.
//
//   npx tsx scripts/bench/fold-ab.ts --before <dir> [--after <dir>] [--events 200000] [--rounds 16]
//
// <dir> is a source tree with the project's node_modules beside its src/ (a worktree, or an export of a commit:
// `git archive <commit> | tar -x -C <dir>` and a link to node_modules). --after defaults to this tree. Only the folds
// are timed (ReadModels.apply over the memory store's events, a page of 1,000 at a time as the runner reads them):
// the log is generated once, by this tree's code, and both sides fold the very same event objects.
//
// Up to a few hundred thousand events. At a million, two trees' models of that size folded in turn in one heap read
// up to 0.7x apart where each tree folding alone in a process of its own reads the same (docs/benchmarks.md, the
// chains model's columns): compare a process per tree there.
import { resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { Effect } from "effect"
import type { RecordedEvent } from "../../src/store/event-store.js"
import { makeMemoryStore } from "../../src/store/memory.js"
import { planLedgerLog, writeLedgerLog } from "./lib/ledger-log.js"
import { count } from "./lib/flags.js"
import { median, quantile } from "./lib/stats.js"

const { values } = parseArgs({
  options: {
    before: { type: "string" },
    after: { type: "string", default: fileURLToPath(new URL("../..", import.meta.url)) },
    events: { type: "string", default: "200000" },
    rounds: { type: "string", default: "16" },
  },
})
if (values.before === undefined) {
  process.stderr.write("--before <dir> is required: the source tree to compare this one with\n")
  process.exit(2)
}
const before = resolve(values.before)
const after = resolve(values.after)
const events = count("events", values.events)
const rounds = count("rounds", values.rounds)

interface Models {
  apply(event: RecordedEvent): void
}
const modelsOf = async (tree: string): Promise<new () => Models> =>
  ((await import(resolve(tree, "src/projections/read-models.ts"))) as { ReadModels: new () => Models }).ReadModels

const plan = await planLedgerLog(Math.min(1000, Math.max(10, Math.floor(events / 1000))))
const store = makeMemoryStore()
const total = await writeLedgerLog(store, plan, events)
const log = await Effect.runPromise(store.readAll())
const sides = { before: await modelsOf(before), after: await modelsOf(after) }

const cpuSeconds = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1e6
}
/** Events per CPU-second of one fold of the whole log into fresh models. */
const fold = (Models: new () => Models): number => {
  const models = new Models()
  const c0 = cpuSeconds()
  for (let i = 0; i < log.length; i += 1000) {
    const page = log.slice(i, i + 1000)
    for (let j = 0; j < page.length; j++) models.apply(page[j]!)
  }
  return total / (cpuSeconds() - c0)
}

for (let i = 0; i < 3; i++) {
  fold(sides.before)
  fold(sides.after)
}
const rates = { before: [] as Array<number>, after: [] as Array<number> }
const ratios: Array<number> = []
for (let r = 0; r < rounds; r++) {
  // Each side goes first in every other pair.
  const first = r % 2 === 0 ? "before" : "after"
  const second = first === "before" ? "after" : "before"
  const a = fold(sides[first])
  const b = fold(sides[second])
  rates[first].push(a)
  rates[second].push(b)
  ratios.push(first === "before" ? b / a : a / b)
}
const k = (x: number) => `${Math.round(x / 1000).toLocaleString("en-US")}k`
console.log(`${total.toLocaleString("en-US")} events, ${rounds} pairs of rounds`)
console.log(`before ${before}: median ${k(median(rates.before))} events per CPU-second (best ${k(Math.max(...rates.before))})`)
console.log(`after  ${after}: median ${k(median(rates.after))} events per CPU-second (best ${k(Math.max(...rates.after))})`)
console.log(
  `after / before, per pair: median ${median(ratios).toFixed(3)}, quartiles ${quantile(ratios, 0.25).toFixed(3)}–${quantile(ratios, 0.75).toFixed(3)}`,
)
