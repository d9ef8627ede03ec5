// Imports check every event's data and that the read models can apply it before writing anything; a log has no
// size limit; and an event the folds cannot apply (written by any other way) stops them, not the server.
import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createApp } from "../../src/api/app.js"
import { createSimulator } from "../../src/simulator.js"
import { makeMemoryStore } from "../../src/store/memory.js"
import { startHarness, type Harness } from "../support/harness.js"
import { exportText, importText, parseFile, writeFile, type Line } from "../support/log-file.js"
import { runScenario, scenarioFixture } from "../support/scenario.js"

let a: Harness
let text: string
const opened: Array<Harness> = []
const fresh = async (app?: { bodyLimit: number }) => {
  const h = await startHarness({ sim: { defaultWorkspace: false, seed: "harness" }, ...(app !== undefined ? { app } : {}) })
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

const edited = (type: string, edit: (e: Line) => Line): { body: string; line: number } => {
  const { header, events } = parseFile(text)
  const at = events.findIndex((e) => e.type === type)
  expect(at).toBeGreaterThanOrEqual(0)
  return {
    body: writeFile(
      header,
      events.map((e, i) => (i === at ? edit(structuredClone(e)) : e)),
    ),
    line: at + 2,
  }
}

describe("POST /_sim/import checks every event before writing any", () => {
  const cases: Array<[string, string, (e: Line) => Line, RegExp]> = [
    [
      "an amount that is not base units",
      "DepositCredited",
      (e) => ({ ...e, data: { ...e.data, amount: "12.5" } }),
      /DepositCredited data\.amount "12\.5" must be base units/,
    ],
    ["an amount that is not a number", "DepositCredited", (e) => ({ ...e, data: { ...e.data, amount: "lots" } }), /must be base units/],
    ["an amount as a JSON number", "DepositCredited", (e) => ({ ...e, data: { ...e.data, amount: 5 } }), /must be base units/],
    [
      "an API key without its secret",
      "ApiKeyCreated",
      (e) => ({ ...e, data: { ...e.data, secret: undefined } }),
      /ApiKeyCreated data: .*secret/,
    ],
    [
      "an API key with a secret that is no key",
      "ApiKeyCreated",
      (e) => ({ ...e, data: { ...e.data, secret: "!" } }),
      /ApiKeyCreated data: .*Base64/,
    ],
    // Every read and the audit look an asset id up: one outside the catalogue would answer 500 once written.
    [
      "a transaction request of an unknown asset",
      "TxRequestCreated",
      (e) => ({ ...e, data: { ...e.data, assetId: "0123456789abcdef01234567" } }),
      /TxRequestCreated data\.assetId "0123456789abcdef01234567" is not an asset of the simulator's catalogue/,
    ],
    [
      "an address holding an unknown asset",
      "AddressDerived",
      (e) => ({ ...e, data: { ...e.data, assetIds: ["ffffffffffffffffffffffff"] } }),
      /data\.assetIds\[0\] "ffffffffffffffffffffffff" is not an asset/,
    ],
    // A time no Date holds broke the HTML audit; a negative one is before any simulated time.
    [
      "a time no Date can hold",
      "TxRequestCreated",
      (e) => ({ ...e, metadata: { ...e.metadata, at: 1e300 } }),
      /between 0 and 8640000000000000 at \["metadata"\]\["at"\]/,
    ],
    ["a negative time", "DepositCredited", (e) => ({ ...e, metadata: { ...e.metadata, at: -1 } }), /at \["metadata"\]\["at"\]/],
    [
      "an epoch that is not a whole number",
      "DepositCredited",
      (e) => ({ ...e, metadata: { ...e.metadata, epoch: 0.5 } }),
      /at \["metadata"\]\["epoch"\]/,
    ],
  ]
  for (const [name, type, edit, message] of cases)
    it(`refuses ${name} with 400 invalid_event_log, the line and the reason; the store stays empty and a clean import then works`, async () => {
      const b = await fresh()
      const { body, line } = edited(type, edit)
      const r = await importText(b, body)
      expect([r.status, r.body.error.code]).toEqual([400, "invalid_event_log"])
      expect(r.body.error.message).toMatch(new RegExp(`^line ${line}: `))
      expect(r.body.error.message).toMatch(message)
      expect(r.body.error.details).toEqual([{ attribute: `line ${line}`, message: expect.stringMatching(message) }])
      expect(await Effect.runPromise(b.sim.store.headPosition)).toBe(-1n)
      expect((await b.admin("GET", "/_sim/health")).status).toBe(200)
      const html = await b.app.request("http://sim.test/_sim/audit", {
        headers: { authorization: `Bearer ${b.sim.adminToken}`, accept: "text/html" },
      })
      expect([html.status, html.headers.get("content-type")]).toEqual([200, expect.stringMatching(/^text\/html/)])
      const clean = await importText(b, text)
      expect(clean.status).toBe(200)
      expect(clean.body.digest).toBeDefined()
    })

  it("refuses, for every event type in the log, an event with a field of the wrong kind: the line and the field", async () => {
    const b = await fresh()
    const { header, events } = parseFile(text)
    const types = [...new Set(events.map((e) => e.type))]
    expect(types.length).toBeGreaterThan(12)
    for (const type of types) {
      const at = events.findIndex((e) => e.type === type)
      const data = events[at]!.data as Record<string, unknown>
      const key = Object.keys(data)[0]!
      const v = data[key]
      const wrong =
        typeof v === "string" ? 12345 : typeof v === "number" ? "12345" : typeof v === "boolean" ? "yes" : v === null ? { not: "null" } : 42
      const body = writeFile(
        header,
        events.map((e, i) => (i === at ? { ...e, data: { ...data, [key]: wrong } } : e)),
      )
      const r = await importText(b, body)
      expect([type, r.status, r.body.error?.code]).toEqual([type, 400, "invalid_event_log"])
      expect(r.body.error.message).toMatch(new RegExp(`^line ${at + 2}: ${type} .*${key}`))
    }
    // Refused before anything was written: the store is still empty and takes the log as it is.
    expect(await Effect.runPromise(b.sim.store.headPosition)).toBe(-1n)
    expect((await importText(b, text)).status).toBe(200)
  })

  it("refuses an event the read models cannot apply, naming it", async () => {
    const b = await fresh()
    const { body, line } = edited("VaultCreated", (e) => ({ ...e, data: null as never }))
    const r = await importText(b, body)
    expect([r.status, r.body.error.code]).toEqual([400, "invalid_event_log"])
    expect(r.body.error.message).toMatch(new RegExp(`^line ${line}: `))
    expect(await Effect.runPromise(b.sim.store.headPosition)).toBe(-1n)
  })

  it("takes a log far larger than the control plane's body limit", async () => {
    const b = await fresh({ bodyLimit: 1024 })
    expect(Buffer.byteLength(text)).toBeGreaterThan(10 * 1024)
    const r = await importText(b, text)
    expect(r.status).toBe(200)
    expect(r.body.digest).toBe((await importText(await fresh(), text)).body.digest)
    // The limit still holds for the other routes.
    const other = await b.app.request("http://sim.test/_sim/vaults", {
      method: "POST",
      headers: { authorization: `Bearer ${b.sim.adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "x".repeat(2_000), type: "test" }),
    })
    expect(other.status).toBe(413)
  })
})

describe("an event the read models cannot apply, already in the store", () => {
  it("stops the folds at its position: the simulator starts, /_sim/health says where and why, reads answer, writes answer 503", async () => {
    const store = makeMemoryStore()
    const seeded = await createSimulator({
      store,
      seed: "poisoned",
      clock: { frozenAt: Date.UTC(2026, 0, 1) },
      fixture: scenarioFixture,
      webhooks: false,
    })
    await seeded.close()
    const head = await Effect.runPromise(store.headPosition)
    await Effect.runPromise(
      store.append(
        `apiKey-${randomUUID()}`,
        [{ id: randomUUID(), type: "ApiKeyCreated", data: { key: "k", at: 0 }, metadata: { at: 0, schemaVersion: 1 } }],
        "no_stream",
      ),
    )
    const halts: Array<string> = []
    const sim = await createSimulator({
      store,
      seed: "poisoned",
      clock: { frozenAt: Date.UTC(2026, 0, 1) },
      webhooks: false,
      onHalt: (m) => halts.push(m),
    })
    try {
      expect(halts).toEqual([
        expect.stringMatching(new RegExp(`^the read models stopped at position ${head + 1n}: its ApiKeyCreated event`)),
      ])
      const app = createApp(sim, { log: { error: () => {}, info: () => {} } })
      const health = await app.request("http://sim.test/_sim/health")
      expect(health.status).toBe(503)
      const body = (await health.json()) as {
        status: string
        position: number
        error: { code: string; position: number; type: string; message: string }
      }
      expect(body.status).toBe("halted")
      expect(body.error).toMatchObject({ code: "read_models_halted", position: Number(head + 1n), type: "ApiKeyCreated" })
      expect(body.position).toBe(Number(head))
      const admin = { authorization: `Bearer ${sim.adminToken}`, "content-type": "application/json" }
      expect((await app.request("http://sim.test/_sim/clock", { headers: admin })).status).toBe(200)
      const write = await app.request("http://sim.test/_sim/vaults", {
        method: "POST",
        headers: admin,
        body: JSON.stringify({ name: "after", type: "test" }),
      })
      expect(write.status).toBe(503)
      expect(((await write.json()) as { error: { code: string } }).error.code).toBe("service_unavailable")
    } finally {
      await sim.close()
    }
  })
})
