// Scenario export and import: byte-identical exports of a recorded scenario, byte-identical read models after a
// replay (any store), a fresh simulator only, and files refused with the line that is wrong.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { canonicalJson } from "../../src/api/digest/canonical.js"
import { digestOf, snapshot } from "../../src/api/digest/digest.js"
import { loadLog } from "../../src/event-log/replay.js"
import { openReplayed } from "../../src/simulator.js"
import { makeMemoryStore } from "../../src/store/memory.js"
import { makeSqliteStore } from "../../src/store/sqlite.js"
import { startHarness, type Harness } from "../support/harness.js"
import { exportText, importText, parseFile, writeFile } from "../support/log-file.js"
import { runScenario, scenarioFixture } from "../support/scenario.js"
import { shownDigest } from "../../src/audit/digest-format.js"

let a: Harness
let text: string
const opened: Array<Harness> = []
const fresh = async (seed = "harness") => {
  const h = await startHarness({ sim: { defaultWorkspace: false, seed } })
  opened.push(h)
  return h
}
beforeAll(async () => {
  a = await startHarness({ fixture: scenarioFixture })
  await runScenario(a)
  text = await exportText(a)
})
afterAll(async () => {
  await a?.close()
  for (const h of opened) await h.close()
})

describe("GET /_sim/export", () => {
  it("writes a header, then one event per line in position order", () => {
    const { header, events } = parseFile(text)
    expect(JSON.parse(header)).toEqual({ format: "custody-sim/events@1", seed: "harness", apiVersion: "2024-05-09" })
    expect(events.length).toBe(Number(a.sim.models.position))
    expect(events.map((e) => e.position)).toEqual(events.map((_, i) => i + 1))
    expect(Object.keys(events[0]!)).toEqual(["stream", "revision", "id", "type", "data", "metadata", "position"])
  })
  it("is byte-identical for the same seed, the same requests and a frozen clock", async () => {
    const again = await startHarness({ fixture: scenarioFixture })
    opened.push(again)
    await runScenario(again)
    expect(await exportText(again)).toBe(text)
  })
})

describe("POST /_sim/import", () => {
  it("loads the log into a fresh simulator: same digest, same answers, a byte-identical export", async () => {
    const b = await fresh()
    const r = await importText(b, text)
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ events: parseFile(text).events.length, position: Number(a.sim.models.position) })
    expect(r.body.digest).toBe(shownDigest(await digestOf(a.sim, undefined)))
    expect(canonicalJson(await snapshot(b.sim, undefined))).toBe(canonicalJson(await snapshot(a.sim, undefined)))
    expect(await exportText(b)).toBe(text)
    expect(b.sim.clock.now()).toBe(a.sim.models.timeline.headTime)
    // The imported simulator goes on where the log stopped: new ids do not collide with the log's.
    const v = await b.admin("POST", "/_sim/vaults", { name: "after import", type: "test" })
    expect(v.status).toBe(201)
    expect(b.sim.models.workspace.vaultList(undefined)).toHaveLength(3)
  })
  it("refuses a simulator whose log is not empty, and a log recorded with another seed", async () => {
    const busy = await importText(a, text)
    expect([busy.status, busy.body.error.code]).toEqual([409, "store_not_empty"])
    const other = await fresh("other seed")
    const seed = await importText(other, text)
    expect([seed.status, seed.body.error.code]).toEqual([409, "seed_mismatch"])
    expect(other.sim.models.position).toBe(-1n)
  })
  it("refuses a bad file with the line at fault, and writes nothing", async () => {
    const { header, events } = parseFile(text)
    const lines = text.trimEnd().split("\n")
    const withLine = (n: number, replace: (l: any) => any) =>
      lines.map((l, i) => (i === n - 1 ? JSON.stringify(replace(JSON.parse(l))) : l)).join("\n")
    const cases: Array<[string, string, RegExp]> = [
      ["no header", lines.slice(1).join("\n"), /^line 1: not a custody-sim\/events@1 header/],
      ["another format", withLine(1, (h) => ({ ...h, format: "x@2" })), /^line 1: /],
      ["bad JSON", [...lines.slice(0, 5), "{oops", ...lines.slice(5)].join("\n"), /^line 6: not valid JSON/],
      ["stream name", withLine(4, (e) => ({ ...e, stream: "Vault-x" })), /^line 4: .*camelCase/],
      ["dash in category", withLine(4, (e) => ({ ...e, stream: "novault" })), /^line 4: /],
      ["revision gap", withLine(5, (e) => ({ ...e, revision: e.revision + 1 })), /^line 5: stream .* expects revision/],
      ["unknown type", withLine(7, (e) => ({ ...e, type: "VaultExploded" })), /^line 7: unknown event type "VaultExploded"/],
      ["metadata.at", withLine(8, (e) => ({ ...e, metadata: { ...e.metadata, at: "yesterday" } })), /^line 8: .*metadata/],
      ["data not an object", withLine(9, (e) => ({ ...e, data: [1] })), /^line 9: /],
      ["id not a uuid", withLine(10, (e) => ({ ...e, id: "x" })), /^line 10: id must be a uuid/],
      ["duplicate id", withLine(11, (e) => ({ ...e, id: events[0]!.id })), /^line 11: event id .* twice/],
      ["out of order", withLine(12, (e) => ({ ...e, position: 1 })), /^line 12: position 1 does not follow/],
      ["empty line", [...lines.slice(0, 3), "", ...lines.slice(3)].join("\n"), /^line 4: empty line/],
    ]
    const b = await fresh()
    for (const [name, body, message] of cases) {
      const r = await importText(b, body)
      expect([name, r.status, r.body.error.code]).toEqual([name, 400, "invalid_event_log"])
      expect([name, r.body.error.message]).toEqual([name, expect.stringMatching(message)])
      expect(r.body.error.details[0].attribute).toMatch(/^line [0-9]+$/)
      expect(b.sim.models.position).toBe(-1n)
      expect(await Effect.runPromise(b.sim.store.headPosition)).toBe(-1n)
    }
    expect((await importText(b, writeFile(header, events))).status).toBe(200)
  })
  it("needs the admin token", async () => {
    const b = await fresh()
    const res = await b.app.request("http://sim.test/_sim/import", { method: "POST", body: text })
    expect(res.status).toBe(401)
  })
})

describe("replay", () => {
  it("gives byte-identical read models whatever the store, and the same digest twice", async () => {
    const dir = mkdtempSync(join(tmpdir(), "custody-sim-replay-"))
    try {
      const lines = text.split("\n")
      const sims = []
      for (const store of [makeMemoryStore(), makeMemoryStore(), makeSqliteStore({ file: join(dir, "events.sqlite") })]) {
        const loaded = await loadLog(lines, store)
        sims.push(await openReplayed(store, loaded.header.seed))
      }
      const snapshots = await Promise.all(sims.map(async (s) => canonicalJson(await snapshot(s, undefined))))
      expect(new Set(snapshots).size).toBe(1)
      expect(snapshots[0]).toBe(canonicalJson(await snapshot(a.sim, undefined)))
      const digests = await Promise.all(sims.map((s) => digestOf(s, undefined)))
      expect(new Set(digests)).toEqual(new Set([await digestOf(a.sim, undefined)]))
      // As of any earlier position too: SQLite and memory both count from 1, so a position names the same event.
      for (const mid of [1n, 30n, 31n]) for (const s of sims) expect(await digestOf(s, mid)).toBe(await digestOf(a.sim, mid))
      for (const s of sims) await s.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
