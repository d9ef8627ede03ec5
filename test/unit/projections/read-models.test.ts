// Routing by event type: each model sees the events its fold handles, and the models end as if every fold saw every event.
import { readFileSync } from "node:fs"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { balanceEffects, ledgerEventTypes } from "../../../src/domain/ledger/index.js"
import { txRequestEventTypes } from "../../../src/domain/transaction-request/index.js"
import { chainsFoldTypes } from "../../../src/projections/chains.js"
import { holdingsFoldTypes } from "../../../src/projections/balances/holdings.js"
import { applyLedger, ledgerFoldTypes } from "../../../src/projections/balances/ledger.js"
import { outboxFoldTypes } from "../../../src/projections/outbox.js"
import { ReadModels } from "../../../src/projections/read-models.js"
import { settingsFoldTypes } from "../../../src/projections/settings.js"
import { settledDepositsFoldTypes } from "../../../src/projections/settled-deposits.js"
import { txRequestsFoldTypes } from "../../../src/projections/transaction-requests.js"
import { transactionsFoldTypes } from "../../../src/projections/transactions.js"
import { workspaceFoldTypes } from "../../../src/projections/workspace.js"
import { knownEventTypes } from "../../../src/events/event-types.js"
import { startHarness } from "../../support/harness.js"
import { runScenario, scenarioFixture } from "../../support/scenario.js"

const folds = {
  "workspace.ts": workspaceFoldTypes,
  "balances/holdings.ts": holdingsFoldTypes,
  "settings.ts": settingsFoldTypes,
  "chains.ts": chainsFoldTypes,
  "transaction-requests.ts": txRequestsFoldTypes,
  "transactions.ts": transactionsFoldTypes,
  "outbox.ts": outboxFoldTypes,
  "settled-deposits.ts": settledDepositsFoldTypes,
}

describe("fold types", () => {
  it("list exactly the event types each model's fold has a case for", () => {
    for (const [file, types] of Object.entries(folds)) {
      const source = readFileSync(new URL(`../../../src/projections/${file}`, import.meta.url), "utf8")
      const apply = source.slice(source.indexOf("  apply(event: StoredOf<"))
      const cases = new Set([...apply.matchAll(/case "(\w+)"|\.type === "(\w+)"/g)].map((m) => m[1] ?? m[2]))
      expect([...cases].sort(), file).toEqual([...types].sort())
    }
  })

  it("name known event types; the ledger's list holds every type with balance effects", () => {
    for (const t of [...Object.values(folds).flat(), ...ledgerFoldTypes]) expect(knownEventTypes.has(t), t).toBe(true)
    const quiet = ["NotificationRaised", "TxRequestApproved", "TxRequestProgressed", "TxRequestSucceeded"]
    for (const type of quiet) expect(balanceEffects({ type, data: {} } as never)).toEqual([])
    expect(new Set([...ledgerFoldTypes, ...quiet]).size).toBe(ledgerFoldTypes.length + quiet.length)
  })
})

/** Every field, Maps, bigints and columns included; a list of transfers names its model (the chains model holds it). */
const snapshot = (value: unknown): string =>
  JSON.stringify(value, (key, v: unknown) => {
    if (typeof v === "bigint") return `${v}n`
    if (v instanceof Map) return { "<map>": [...v.entries()] }
    if (typeof v === "function") return `<fn ${v.name}>`
    if (ArrayBuffer.isView(v)) return Array.from(v as Float64Array)
    if (key === "model" && typeof v === "object" && v !== null) return "<model>"
    return v
  })

describe("ReadModels.apply", () => {
  it("ends a scenario's log in the state reached by giving every event to every fold", async () => {
    const h = await startHarness({ fixture: scenarioFixture })
    try {
      await runScenario(h)
      const log = await Effect.runPromise(h.sim.store.readAll())
      const routed = new ReadModels()
      const everyFold = new ReadModels()
      for (const e of log) {
        routed.apply(e)
        everyFold.timeline.record(e.position, e.metadata.at)
        // Every fold is handed every event, whatever its type (the router hands each only the types it lists).
        const any = e as never
        everyFold.workspace.apply(any)
        everyFold.holdings.apply(any)
        everyFold.settings.apply(any)
        everyFold.chains.apply(any)
        if (ledgerEventTypes.has(e.type) || txRequestEventTypes.has(e.type)) applyLedger(everyFold.holdings, any)
        everyFold.txRequests.apply(any)
        everyFold.transactions.apply(any)
        everyFold.outbox.apply(any)
        everyFold.utxos.apply(any)
        everyFold.settledDeposits.apply(any)
      }
      expect(log.length).toBeGreaterThan(50)
      expect(snapshot({ ...routed, lastSeq: 0 })).toBe(snapshot({ ...everyFold, lastSeq: 0 }))
      expect(snapshot(routed.holdings)).toBe(snapshot(h.sim.models.holdings))
    } finally {
      await h.close()
    }
  })
})
