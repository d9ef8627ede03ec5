// The tron request kinds through export and replay: a log with manage-resource and contract-interaction requests
// (one failed on chain beyond its allowance) replays into a fresh store and exports the same bytes again, answers
// every read as the original (the audit digest), now and as of an earlier position, and reconciles.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runAudit } from "../support/audit.js"
import { digestOf } from "../../src/api/digest/digest.js"
import { exportLines } from "../../src/event-log/export.js"
import { loadLog } from "../../src/event-log/replay.js"
import { openReplayed } from "../../src/simulator.js"
import { makeMemoryStore } from "../../src/store/memory.js"
import { startHarness, type Harness } from "../support/harness.js"
import { exportText, parseFile } from "../support/log-file.js"
import { runTronKinds, type TronKinds } from "../support/tron-kinds.js"

let h: Harness
let world: TronKinds
let text: string
beforeAll(async () => {
  h = await startHarness({ sim: { webhooks: false } })
  world = await runTronKinds(h)
  text = await exportText(h)
})
afterAll(async () => h?.close())

const replayed = async (body: string) => {
  const store = makeMemoryStore()
  const loaded = await loadLog(body.split("\n"), store)
  return openReplayed(store, loaded.header.seed)
}

describe("tron request kinds in export and replay", () => {
  it("the log holds what the kinds did: staking executed on chain, the transfer-from beyond its allowance mined with errors", async () => {
    const { events } = parseFile(text)
    const types = new Set(events.map((e) => e.type))
    expect(types).toContain("ChainTxExecuted")
    const mined = events.filter((e) => e.type === "TxRequestMined")
    expect(mined.find((e) => e.data.requestId === world.refused)?.data.withErrors).toBe(true)
    expect(mined.find((e) => e.data.requestId === world.pull)?.data.withErrors).toBe(false)
    const executed = events.filter((e) => e.type === "ChainTxExecuted").map((e) => e.data.operation?.type ?? "transfer")
    expect(executed).toEqual(expect.arrayContaining(["freeze", "delegate", "transfer-from", "approve", "unfreeze"]))
  })
  it("replays to the same bytes, the same answers (audit digest, now and as of the middle) and a clean audit", async () => {
    const sim = await replayed(text)
    try {
      const header = JSON.parse(parseFile(text).header) as { seed: string; apiVersion: string }
      const lines: Array<string> = []
      for await (const line of exportLines(sim.store, { seed: header.seed, apiVersion: header.apiVersion } as never, {
        includeSecrets: true,
      }))
        lines.push(line)
      expect(`${lines.join("\n")}\n`).toBe(text)
      expect(await digestOf(sim, undefined)).toBe(await digestOf(h.sim, undefined))
      expect(await digestOf(sim, world.middle)).toBe(await digestOf(h.sim, world.middle))
      expect((await runAudit(sim, undefined)).discrepancies).toEqual([])
      expect((await runAudit(h.sim, undefined)).discrepancies).toEqual([])
    } finally {
      await sim.close()
    }
  })
})
