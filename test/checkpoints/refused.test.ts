// Checkpoints that must not be used are refused with a reason and the models rebuilt from the log: a damaged or
// cut-off file, one written by other read-model code, one ahead of the log or taken from another log; a revert
// below a checkpoint removes it before the log is cut.
import { cpSync, openSync, readFileSync, statSync, truncateSync, writeFileSync, writeSync, closeSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import { digestOf } from "../../src/api/digest/digest.js"
import { createVault } from "../../src/commands/workspace.js"
import { listCheckpoints } from "../../src/checkpoints/directory.js"
import { makeSqliteStore } from "../../src/store/sqlite.js"
import { assetId } from "../support/catalogue.js"
import { startHarness } from "../support/harness.js"
import { runScenario, scenarioFixture } from "../support/scenario.js"
import { dataDir, everyRead, rebuiltReads, reopen, SEED } from "./support.js"

let base: string
let head: bigint
let rebuiltDigest: string

beforeAll(async () => {
  base = dataDir()
  const h = await startHarness({
    fixture: scenarioFixture,
    sim: {
      store: makeSqliteStore({ file: join(base, "events.sqlite") }),
      seed: SEED,
      webhooks: false,
      checkpoints: { dir: base, every: 1_000_000, log: () => {} },
    },
  })
  await runScenario(h)
  head = h.sim.models.position
  await h.close()
  const sim = await reopen(base, { checkpoints: false })
  rebuiltDigest = await digestOf(sim, undefined)
  await sim.close()
}, 300_000)

const copy = (): { dir: string; file: string } => {
  const dir = dataDir()
  cpSync(base, dir, { recursive: true })
  return { dir, file: listCheckpoints(dir)[0]!.file }
}

/** Opens the directory with checkpoints: the lines logged, whether one was used, and the digest. */
const restart = async (dir: string) => {
  const lines: Array<string> = []
  const sim = await reopen(dir, { checkpoints: true, lines })
  try {
    return { lines, restoredFrom: sim.restoredFrom, digest: await digestOf(sim, undefined) }
  } finally {
    await sim.close()
  }
}

describe("a checkpoint that must not be used", () => {
  it("damaged (one byte changed) is refused, and the models rebuilt give the full rebuild's digest", { timeout: 300_000 }, async () => {
    const { dir, file } = copy()
    const size = statSync(file).size
    const fd = openSync(file, "r+")
    const at = size - 100
    writeSync(fd, Buffer.from([readFileSync(file)[at]! ^ 0xff]), 0, 1, at)
    closeSync(fd)
    const r = await restart(dir)
    expect(r.restoredFrom).toBeUndefined()
    expect(r.lines.join("\n")).toMatch(/not used: the \w+ section is damaged/)
    expect(r.digest).toBe(rebuiltDigest)
  })

  it("cut off (a partial write) is refused", { timeout: 300_000 }, async () => {
    const { dir, file } = copy()
    truncateSync(file, Math.floor(statSync(file).size / 2))
    const r = await restart(dir)
    expect(r.restoredFrom).toBeUndefined()
    expect(r.lines.join("\n")).toMatch(/not used: the file is cut off/)
    expect(r.digest).toBe(rebuiltDigest)
  })

  it("written by other read-model code (another fingerprint) is refused", { timeout: 300_000 }, async () => {
    const { dir, file } = copy()
    const text = readFileSync(file)
    const start = text.indexOf('"code":"') + 8
    text[start] = text[start] === 0x41 ? 0x42 : 0x41
    writeFileSync(file, text)
    const r = await restart(dir)
    expect(r.restoredFrom).toBeUndefined()
    expect(r.lines.join("\n")).toMatch(/not used: written by other read-model code/)
    expect(r.digest).toBe(rebuiltDigest)
  })

  it("of the previous format (7: transaction ids in one table with the other interned strings) is refused", {
    timeout: 300_000,
  }, async () => {
    const { dir, file } = copy()
    const bytes = readFileSync(file)
    const magic = "custody-sim read-model checkpoint 8\n"
    expect(bytes.toString("utf8", 0, magic.length)).toBe(magic)
    Buffer.from("custody-sim read-model checkpoint 7\n").copy(bytes, 0)
    writeFileSync(file, bytes)
    const r = await restart(dir)
    expect(r.restoredFrom).toBeUndefined()
    expect(r.lines.join("\n")).toMatch(/not used: not a checkpoint of this format/)
    expect(r.digest).toBe(rebuiltDigest)
  })

  it("ahead of the log (the log was cut back behind the simulator's back) is refused", { timeout: 300_000 }, async () => {
    const { dir } = copy()
    const store = makeSqliteStore({ file: join(dir, "events.sqlite") })
    await Effect.runPromise(store.truncateAfter!(head - 10n))
    store.close()
    const r = await restart(dir)
    expect(r.restoredFrom).toBeUndefined()
    expect(r.lines.join("\n")).toMatch(/not used: ahead of the log/)
    const rebuilt = await reopen(dir, { checkpoints: false })
    expect(r.digest).toBe(await digestOf(rebuilt, undefined))
    await rebuilt.close()
  })

  it("taken from another log (another event at its position) is refused", { timeout: 300_000 }, async () => {
    const { dir } = copy()
    // The log cut back and grown again differently, past the checkpoint's position, without the simulator knowing.
    const store = makeSqliteStore({ file: join(dir, "events.sqlite") })
    await Effect.runPromise(store.truncateAfter!(head - 10n))
    store.close()
    const sim = await reopen(dir, { checkpoints: false })
    for (let i = 0; sim.models.position <= head; i++) {
      await sim.run(createVault({ name: `other ${i}`, type: "test" }))
      await sim.run(sim.runner.pull)
    }
    const grown = await digestOf(sim, undefined)
    await sim.close()
    const r = await restart(dir)
    expect(r.restoredFrom).toBeUndefined()
    expect(r.lines.join("\n")).toMatch(/not used: taken from another log/)
    expect(r.digest).toBe(grown)
  })
})

describe("a revert", () => {
  it("below a checkpoint removes it before cutting the log; a restart afterwards answers as a full rebuild", {
    timeout: 300_000,
  }, async () => {
    const dir = dataDir()
    const h = await startHarness({
      fixture: scenarioFixture,
      sim: {
        store: makeSqliteStore({ file: join(dir, "events.sqlite") }),
        seed: SEED,
        webhooks: false,
        checkpoints: { dir, every: 1_000_000, log: () => {} },
      },
    })
    const ids = await runScenario(h)
    const early = await h.sim.checkpoint()
    const snap = await h.sim.snapshot()
    const deposit = () =>
      h.admin("POST", "/_sim/deposits", {
        blockchain: "ethereum",
        network: "sepolia",
        address: ids.ethAddress,
        assetId: assetId("ethereum", "sepolia", "ETH"),
        amount: "2",
      })
    await deposit()
    await h.admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: 2 })
    const late = await h.sim.checkpoint()
    expect(late).toBeGreaterThan(snap.position)
    expect(listCheckpoints(dir).map((c) => c.position)).toEqual([late, early])
    await h.sim.revert(snap.id)
    // The checkpoint beyond the snapshot is gone; the one at it stays.
    expect(listCheckpoints(dir).map((c) => c.position)).toEqual([early])
    await h.admin("POST", "/_sim/vaults", { name: "After the revert", type: "main" })
    const after = await h.sim.checkpoint()
    expect(after).toBe(h.sim.models.position)
    await h.sim.revert(snap.id)
    expect(listCheckpoints(dir).map((c) => c.position)).toEqual([early])
    await deposit()
    const head = h.sim.models.position
    await h.close()
    const rebuilt = await rebuiltReads(dir)
    const lines: Array<string> = []
    const sim = await reopen(dir, { checkpoints: true, lines })
    try {
      expect(lines).toEqual([])
      expect(sim.restoredFrom).toBe(head)
      expect(await everyRead(sim)).toEqual(rebuilt)
    } finally {
      await sim.close()
    }
  })
})
