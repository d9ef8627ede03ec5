// POST /_sim/import?until=: a recorded scenario forked at a position, then continued differently.
import { afterAll, beforeAll, expect, it } from "vitest"
import { digestOf } from "../../src/api/digest/digest.js"
import { startHarness, type Harness } from "../support/harness.js"
import { exportText, parseFile } from "../support/log-file.js"
import { runScenario, scenarioFixture } from "../support/scenario.js"
import { shownDigest } from "../../src/audit/digest-format.js"

let recorded: Harness
let text: string
const opened: Array<Harness> = []
const fresh = async () => {
  const h = await startHarness({ sim: { defaultWorkspace: false } })
  opened.push(h)
  return h
}
const importUntil = async (h: Harness, until: string) => {
  const res = await h.app.request(`http://sim.test/_sim/import?until=${until}`, {
    method: "POST",
    headers: { authorization: `Bearer ${h.sim.adminToken}`, "content-type": "application/x-ndjson" },
    body: text,
  })
  return { status: res.status, body: (await res.json()) as any }
}
beforeAll(async () => {
  recorded = await startHarness({ fixture: scenarioFixture })
  await runScenario(recorded)
  text = await exportText(recorded)
})
afterAll(async () => {
  await recorded?.close()
  for (const h of opened) await h.close()
})

it("loads the events up to the position: the recorded world as of then, its clock, and it goes on from there", async () => {
  const until = 57
  const fork = await fresh()
  const r = await importUntil(fork, String(until))
  expect(r.status).toBe(200)
  expect(r.body).toEqual({ events: until, position: until, digest: shownDigest(await digestOf(recorded.sim, BigInt(until))) })
  const lastLoaded = parseFile(text).events[until - 1]! // positions count from 1
  expect(fork.sim.clock.now()).toBe(recorded.sim.models.timeline.timeAt(BigInt(until)))
  expect(fork.sim.models.timeline.headTime).toBe(lastLoaded.metadata.at)
  const created = await fork.admin("POST", "/_sim/vaults", { name: "the other branch", type: "test" })
  expect(created.status).toBe(201)
  expect(fork.sim.models.position).toBeGreaterThan(BigInt(until))
})

it("beyond the last position loads everything; a bad position is 400 invalid_data and loads nothing", async () => {
  const whole = await fresh()
  const all = await importUntil(whole, "999999")
  expect(all.body).toMatchObject({ events: parseFile(text).events.length, digest: shownDigest(await digestOf(recorded.sim, undefined)) })
  const refused = await fresh()
  for (const until of ["-1", "1.5", "abc", ""]) {
    const r = await importUntil(refused, until)
    expect(r.status).toBe(400)
    expect(r.body.error).toMatchObject({ code: "invalid_data", details: [{ attribute: "until", message: expect.any(String) }] })
  }
  expect(refused.sim.models.position).toBe(-1n)
})
