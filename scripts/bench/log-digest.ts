// The audit digest of the benchmarks' generated log (now, and as of its middle), to compare builds before and after
// a change of the read models: the same log must give the same digests. The log is the replay benchmark's
// (deterministic: same events for the same length).
// Run: `node --max-old-space-size=6000 --import tsx scripts/bench/log-digest.ts [--events N]` (1,000,000 by default).
import { digestOf } from "../../src/api/digest/digest.js"
import { openReplayed } from "../../src/event-log/replay.js"
import { makeMemoryStore } from "../../src/store/memory.js"
import { LOG_SEED, planLedgerLog, writeLedgerLog } from "./lib/ledger-log.js"

const i = process.argv.indexOf("--events")
const events = i > 0 ? Number(process.argv[i + 1]) : 1_000_000
const plan = await planLedgerLog(Math.min(1000, Math.max(10, Math.floor(events / 1000))))
const store = makeMemoryStore()
const total = await writeLedgerLog(store, plan, events)
const sim = await openReplayed(store, LOG_SEED)
const head = sim.models.position
const middle = head / 2n
const out = { events: total, position: Number(head), digest: `sha256:${await digestOf(sim, undefined)}`, middle: Number(middle), digestAtMiddle: `sha256:${await digestOf(sim, middle)}` }
await sim.close()
process.stdout.write(`${JSON.stringify(out, null, 2)}\n`)
