// The audit digest of the benchmarks' generated log (now, and as of its middle), to compare builds before and after
// a change of the read models or of a store's read: the same log must give the same digests. The log is the replay
// benchmark's (deterministic: same events for the same length). With `--store sqlite` the log is written to a file,
// the store closed, and the read models rebuilt by a store opened afresh on the file (what a restart reads).
// Run: `node --max-old-space-size=6000 --import tsx scripts/bench/log-digest.ts [--events N] [--store memory|sqlite]`
// (1,000,000 events and the memory store by default).
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { digestOf } from "../../src/api/digest/digest.js"
import { openReplayed } from "../../src/simulator.js"
import { makeMemoryStore } from "../../src/store/memory.js"
import { makeSqliteStore } from "../../src/store/sqlite.js"
import { count } from "./lib/flags.js"
import { LOG_SEED, planLedgerLog, writeLedgerLog } from "./lib/ledger-log.js"
import { shownDigest } from "../../src/audit/digest-format.js"

const { values } = parseArgs({ options: { events: { type: "string", default: "1000000" }, store: { type: "string", default: "memory" } } })
const events = count("events", values.events)
if (values.store !== "memory" && values.store !== "sqlite") {
  process.stderr.write(`--store takes memory or sqlite, not ${JSON.stringify(values.store)}\n`)
  process.exit(2)
}
const plan = await planLedgerLog(Math.min(1000, Math.max(10, Math.floor(events / 1000))))
const dir = values.store === "sqlite" ? mkdtempSync(join(tmpdir(), "custody-sim-log-digest-")) : undefined
try {
  let store: Parameters<typeof openReplayed>[0]
  let total: number
  if (dir === undefined) {
    store = makeMemoryStore()
    total = await writeLedgerLog(store, plan, events)
  } else {
    const file = join(dir, "events.sqlite")
    const written = makeSqliteStore({ file })
    total = await writeLedgerLog(written, plan, events)
    written.close()
    store = makeSqliteStore({ file })
  }
  const sim = await openReplayed(store, LOG_SEED)
  const head = sim.models.position
  const middle = head / 2n
  const out = {
    events: total,
    store: values.store,
    position: Number(head),
    digest: shownDigest(await digestOf(sim, undefined)),
    middle: Number(middle),
    digestAtMiddle: shownDigest(await digestOf(sim, middle)),
  }
  await sim.close()
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`)
} finally {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
}
