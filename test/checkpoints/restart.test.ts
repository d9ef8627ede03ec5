// A restart from a read-model checkpoint answers every read exactly as a full rebuild of the same log does; a
// checkpoint that is damaged, cut off, written by other code, or ahead of or from another log is not used.
import { copyFileSync, readdirSync, statSync, unlinkSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { listCheckpoints } from "../../src/checkpoints/directory.js"
import type { Simulator } from "../../src/simulator.js"
import { makeSqliteStore } from "../../src/store/sqlite.js"
import { assetId } from "../support/catalogue.js"
import { startHarness, type Harness } from "../support/harness.js"
import { runScenario, scenarioFixture } from "../support/scenario.js"
import { dataDir, everyRead, rebuiltReads, reopen, SEED } from "./support.js"

const open: Array<{ close: () => Promise<void> }> = []
afterEach(async () => {
  for (const s of open.splice(0)) await s.close()
})

/** A data directory holding the scripted scenario's log, closed (so checkpointed at its head). */
const scenarioDir = async (): Promise<{ dir: string; head: bigint }> => {
  const dir = dataDir()
  const h: Harness = await startHarness({
    fixture: scenarioFixture,
    sim: {
      store: makeSqliteStore({ file: join(dir, "events.sqlite") }),
      seed: SEED,
      webhooks: false,
      checkpoints: { dir, every: 1_000_000, log: () => {} },
    },
  })
  await runScenario(h)
  const head = h.sim.models.position
  await h.close()
  return { dir, head }
}

const track = (sim: Simulator) => {
  open.push(sim)
  return sim
}

describe("read-model checkpoints", () => {
  it("are written at close (0600 in the 0700 data directory), and a restart loads one and answers every read as a full rebuild does", {
    timeout: 300_000,
  }, async () => {
    const { dir, head } = await scenarioDir()
    const files = listCheckpoints(dir)
    expect(files.map((f) => f.position)).toEqual([head])
    expect(statSync(files[0]!.file).mode & 0o777).toBe(0o600)
    expect(readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([])
    const rebuilt = await rebuiltReads(dir)
    const lines: Array<string> = []
    const sim = track(await reopen(dir, { checkpoints: true, lines }))
    expect(lines).toEqual([])
    expect(sim.restoredFrom).toBe(head)
    expect(sim.models.position).toBe(head)
    expect(await everyRead(sim)).toEqual(rebuilt)
  })

  it("fold only the events after the checkpoint's position, with the same reads as a full rebuild", { timeout: 300_000 }, async () => {
    const dir = dataDir()
    const h: Harness = await startHarness({
      fixture: scenarioFixture,
      sim: {
        store: makeSqliteStore({ file: join(dir, "events.sqlite") }),
        seed: SEED,
        webhooks: false,
        checkpoints: { dir, every: 1_000_000, log: () => {} },
      },
    })
    const ids = await runScenario(h)
    const at = await h.sim.checkpoint()
    expect(at).toBe(h.sim.models.position)
    const early = listCheckpoints(dir)[0]!
    copyFileSync(early.file, `${early.file}.keep`)
    await h.admin("POST", "/_sim/deposits", {
      blockchain: "ethereum",
      network: "sepolia",
      address: ids.ethAddress,
      assetId: assetId("ethereum", "sepolia", "ETH"),
      amount: "1",
    })
    await h.admin("POST", "/_sim/clock/advance", { seconds: 3600 })
    await h.admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: 3 })
    const head = h.sim.models.position
    expect(head).toBeGreaterThan(at!)
    await h.close()
    // Only the early checkpoint is left: the restart folds the tail after it.
    for (const f of listCheckpoints(dir)) if (f.position !== early.position) unlinkSync(f.file)
    copyFileSync(`${early.file}.keep`, early.file)
    const rebuilt = await rebuiltReads(dir)
    const lines: Array<string> = []
    const sim = track(await reopen(dir, { checkpoints: true, lines }))
    expect(lines).toEqual([])
    expect(sim.restoredFrom).toBe(early.position)
    expect(sim.models.position).toBe(head)
    expect(await everyRead(sim)).toEqual(rebuilt)
  })

  it("are written in the background every `every` events, with no call to write one", { timeout: 300_000 }, async () => {
    const dir = dataDir()
    const h: Harness = await startHarness({
      fixture: scenarioFixture,
      sim: {
        store: makeSqliteStore({ file: join(dir, "events.sqlite") }),
        seed: SEED,
        webhooks: false,
        checkpoints: { dir, every: 40, log: () => {} },
      },
    })
    try {
      await runScenario(h)
      // The thread writes on its own schedule: wait (bounded) for one at least 40 events in.
      const deadline = Date.now() + 240_000
      while (listCheckpoints(dir).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
      const written = listCheckpoints(dir)
      expect(written.length).toBeGreaterThan(0)
      expect(written[0]!.position).toBeGreaterThanOrEqual(40n)
      expect(written[0]!.position).toBeLessThanOrEqual(h.sim.models.position)
    } finally {
      await h.close()
    }
  })
})
