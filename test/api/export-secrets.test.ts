// GET /_sim/export leaves the secrets out by default (API key secrets, passphrase salts and hashes, webhook secrets,
// and the seed they derive from) in a way a replay accepts: the replayed world answers the same and has the same
// digest, with fresh secrets it reports. ?includeSecrets=true is the full copy. Over a real socket.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Client } from "undici"
import { createApp } from "../../src/api/app.js"
import { digestOf } from "../../src/api/digest/digest.js"
import { exportLines } from "../../src/event-log/export.js"
import { loadLog } from "../../src/event-log/replay.js"
import { openReplayed } from "../../src/simulator.js"
import { makeMemoryStore } from "../../src/store/memory.js"
import { createKey, startHarness, type Harness } from "../support/harness.js"
import { importText, parseFile, writeFile } from "../support/log-file.js"
import { runScenario, scenarioFixture } from "../support/scenario.js"
import { listen } from "../support/server.js"
import { isSimErrorShape, json, send, strictConnection } from "../support/strict-http.js"

const CHOSEN = { secret: Buffer.from("a secret chosen by the test, 32 b").toString("base64"), passphrase: "chosen passphrase" }
const WEBHOOK_SECRET = "whsec-export-test-0123456789"

let h: Harness
let server: { url: string; close: () => Promise<void> }
let http: Client
let secrets: Array<string>
const get = (path: string) => send(http, { method: "GET", path, headers: { authorization: `Bearer ${h.sim.adminToken}` } })

beforeAll(async () => {
  h = await startHarness({ fixture: scenarioFixture })
  await runScenario(h)
  await createKey(h, { apiVersion: "2024-05-09", name: "chosen", ...CHOSEN })
  const hook = await h.admin("POST", "/_sim/webhooks", {
    url: "http://127.0.0.1:9/hook",
    secret: WEBHOOK_SECRET,
    events: ["*"],
    verification: "manual",
  })
  expect(hook.status).toBe(201)
  server = await listen(createApp(h.sim, { log: { error: () => {}, info: () => {} } }))
  http = strictConnection(server.url)
  const grants = [...h.sim.models.workspace.apiKeys.values()].map((k) => k.grant)
  expect(grants.length).toBeGreaterThanOrEqual(2)
  secrets = [...grants.flatMap((g) => [g.secret, g.passphraseSalt, g.passphraseHash]), CHOSEN.passphrase, WEBHOOK_SECRET, h.sim.adminToken]
})
afterAll(async () => {
  await http?.close()
  await server?.close()
  await h?.close()
})

describe("GET /_sim/export", () => {
  it("by default holds no secret and no seed, and marks what it left out", async () => {
    const r = await get("/_sim/export")
    expect(r.status).toBe(200)
    for (const s of secrets) expect([s, r.text.includes(s)]).toEqual([s, false])
    const { header, events } = parseFile(r.text)
    expect(JSON.parse(header)).toEqual({ format: "custody-sim/events@1", seed: null, apiVersion: "2024-05-09" })
    const keys = events.filter((e) => e.type === "ApiKeyCreated")
    expect(keys.map((e) => [e.data.secret, e.data.passphraseSalt, e.data.passphraseHash, e.metadata.redacted])).toEqual(
      keys.map(() => ["", "", "", ["secret", "passphraseSalt", "passphraseHash"]]),
    )
    expect(events.filter((e) => e.type === "WebhookSubscribed").map((e) => [e.data.secret, e.metadata.redacted])).toEqual([
      ["", ["secret"]],
    ])
  })

  it("replays to the same digest with fresh secrets, and its export comes back byte for byte", async () => {
    const text = (await get("/_sim/export")).text
    const store = makeMemoryStore()
    const loaded = await loadLog(text.split("\n"), store)
    const sim = await openReplayed(store, loaded.header.seed)
    try {
      expect(await digestOf(sim, undefined)).toBe(await digestOf(h.sim, undefined))
      expect(loaded.filled.apiKeys.map((k) => k.key).sort()).toEqual([...h.sim.models.workspace.apiKeys.keys()].sort())
      for (const k of loaded.filled.apiKeys) expect(secrets).not.toContain(k.secret)
      expect(loaded.filled.webhooks).toEqual([{ webhookId: expect.any(String), secret: expect.not.stringMatching(WEBHOOK_SECRET) }])
      const lines: Array<string> = []
      for await (const line of exportLines(sim.store, { seed: null, apiVersion: "2024-05-09" }, { includeSecrets: false })) lines.push(line)
      expect(`${lines.join("\n")}\n`).toBe(text)
    } finally {
      await sim.close()
    }
  })

  it("with ?includeSecrets=true is the full copy: every secret and the seed", async () => {
    const r = await get("/_sim/export?includeSecrets=true")
    expect(r.status).toBe(200)
    for (const s of secrets.filter((x) => x !== h.sim.adminToken && x !== CHOSEN.passphrase))
      expect([s, r.text.includes(s)]).toEqual([s, true])
    expect(JSON.parse(parseFile(r.text).header).seed).toBe("harness")
    expect(r.text).not.toContain('"redacted"')
    expect((await get("/_sim/export?includeSecrets=false")).text).toBe((await get("/_sim/export")).text)
  })

  it("refuses a value of includeSecrets other than true or false, and any other parameter, with 400 invalid_data", async () => {
    for (const path of ["/_sim/export?includeSecrets=yes", "/_sim/export?include_secrets=true"]) {
      const r = await get(path)
      expect([path, r.status]).toEqual([path, 400])
      expect(isSimErrorShape(json(r))).toBe(true)
      expect((json(r) as any).error.code).toBe("invalid_data")
    }
  })
})

describe("POST /_sim/import of an export without secrets", () => {
  it("answers the fresh credentials it gave each key; they sign, the old ones do not", async () => {
    const text = (await get("/_sim/export")).text
    const b = await startHarness({ sim: { defaultWorkspace: false, seed: "harness" } })
    try {
      const r = await importText(b, text)
      expect(r.status).toBe(200)
      expect(r.body.digest).toBe(`sha256:${await digestOf(h.sim, undefined)}`)
      const fresh = r.body.secrets.apiKeys.find((k: { key: string }) => k.key === h.creds.key)
      expect(fresh).toEqual({ key: h.creds.key, secret: expect.any(String), passphrase: expect.any(String) })
      expect(fresh.secret).not.toBe(h.creds.secret)
      expect((await b.clientFor(fresh).call("GET", "/vaults")).status).toBe(200)
      expect((await b.clientFor(h.creds).call("GET", "/vaults")).status).toBe(401)
    } finally {
      await b.close()
    }
  })

  it("refuses a redacted event that still holds a secret, or a mark on a type without secrets, naming the line", async () => {
    const { header, events } = parseFile((await get("/_sim/export")).text)
    const cases: Array<[string, (e: (typeof events)[number]) => (typeof events)[number]]> = [
      ["holds its secrets empty", (e) => (e.type === "ApiKeyCreated" ? { ...e, data: { ...e.data, secret: CHOSEN.secret } } : e)],
      ["must name no field", (e) => (e.type === "VaultCreated" ? { ...e, metadata: { ...e.metadata, redacted: ["name"] } } : e)],
      ["must name exactly", (e) => (e.type === "WebhookSubscribed" ? { ...e, metadata: { ...e.metadata, redacted: ["url"] } } : e)],
    ]
    for (const [reason, edit] of cases) {
      const b = await startHarness({ sim: { defaultWorkspace: false, seed: "harness" } })
      try {
        const r = await importText(b, writeFile(header, events.map(edit)))
        expect([reason, r.status, r.body.error.code]).toEqual([reason, 400, "invalid_event_log"])
        expect(r.body.error.message).toContain(reason)
        expect(b.sim.models.position).toBe(-1n)
      } finally {
        await b.close()
      }
    }
  })
})
