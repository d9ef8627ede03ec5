// One digest format, from one function: the audit's JSON, text and HTML, and POST /_sim/import's answer show the
// same digest of the same world as `sha256:` and its 64 hex digits.
import { afterAll, beforeAll, expect, it } from "vitest"
import { auditText, type AuditReport } from "../../src/audit/audit.js"
import { shownDigest } from "../../src/audit/digest-format.js"
import { startHarness, type Harness } from "../support/harness.js"
import { exportText, importText } from "../support/log-file.js"
import { runScenario, scenarioFixture } from "../support/scenario.js"

let recorded: Harness
let replayed: Harness
beforeAll(async () => {
  recorded = await startHarness({ fixture: scenarioFixture })
  await runScenario(recorded)
  replayed = await startHarness({ sim: { defaultWorkspace: false } })
})
afterAll(async () => {
  await recorded?.close()
  await replayed?.close()
})

it("the audit's text and HTML and the import's answer show the digest as sha256:<64 hex>", async () => {
  const report = (await recorded.admin<AuditReport>("GET", "/_sim/audit")).body
  const hex = report.digest.sha256
  expect(hex).toMatch(/^[0-9a-f]{64}$/)
  const shown = shownDigest(hex)
  expect(shown).toBe(`sha256:${hex}`)
  expect(auditText(report).split("\n").at(-1)).toBe(`digest ${shown}`)
  const html = await recorded.app.request("http://sim.test/_sim/audit", {
    headers: { authorization: `Bearer ${recorded.sim.adminToken}`, accept: "text/html" },
  })
  expect(await html.text()).toContain(`<code>${shown}</code>`)
  const imported = await importText(replayed, await exportText(recorded))
  expect(imported.status).toBe(200)
  expect(imported.body.digest).toBe(shown)
})
