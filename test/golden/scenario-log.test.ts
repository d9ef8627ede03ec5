// Behaviour pinned across refactors: the scripted scenario's exported log and audit digest must stay the same
// bytes. A deliberate change of the log or the read models updates scenario-log.json, with the reason in the commit.
import { createHash } from "node:crypto"
import { readFileSync, writeFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { digestOf } from "../../src/api/digest/digest.js"
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
})
