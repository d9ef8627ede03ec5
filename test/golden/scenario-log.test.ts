// Behaviour pinned across refactors: the scripted scenario's log (the full export, secrets included) and audit digest
// must stay the same bytes, and the default export (without secrets) replays to that digest. A deliberate change of
// the log or the read models updates scenario-log.json, with the reason in the commit.
import { createHash } from "node:crypto"
import { readFileSync, writeFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { digestOf } from "../../src/api/digest/digest.js"
import { loadLog } from "../../src/event-log/replay.js"
import { openReplayed } from "../../src/simulator.js"
import { makeMemoryStore } from "../../src/store/memory.js"
import { startHarness, type Harness } from "../support/harness.js"
import { exportText, parseFile } from "../support/log-file.js"
import { runScenario, scenarioFixture } from "../support/scenario.js"

const goldenFile = new URL("./scenario-log.json", import.meta.url)
const golden = JSON.parse(readFileSync(goldenFile, "utf8")) as { events: number; logSha256: string; auditDigest: string }

let h: Harness
let text: string
beforeAll(async () => {
  h = await startHarness({ fixture: scenarioFixture })
  await runScenario(h)
  text = await exportText(h)
})
afterAll(async () => {
  await h?.close()
})

describe("the scripted scenario", () => {
  it("exports the same log, byte for byte, and the same audit digest", async () => {
    const actual = { events: parseFile(text).events.length, logSha256: createHash("sha256").update(text).digest("hex"), auditDigest: await digestOf(h.sim, undefined) }
    // UPDATE_GOLDEN=1 rewrites the file (a deliberate change of behaviour only).
    if (process.env.UPDATE_GOLDEN === "1") writeFileSync(goldenFile, `${JSON.stringify(actual, null, 2)}\n`)
    expect(actual).toEqual(process.env.UPDATE_GOLDEN === "1" ? actual : golden)
  })
  it("exports without secrets by default, and that log replays to the same audit digest", async () => {
    const redacted = await exportText(h, { includeSecrets: false })
    expect(redacted).not.toBe(text)
    expect(parseFile(redacted).events.length).toBe(golden.events)
    const store = makeMemoryStore()
    const loaded = await loadLog(redacted.split("\n"), store)
    const sim = await openReplayed(store, loaded.header.seed)
    try {
      expect(await digestOf(sim, undefined)).toBe(golden.auditDigest)
    } finally {
      await sim.close()
    }
  })
})
