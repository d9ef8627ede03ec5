// POST /_sim/import reads and checks its whole log before it enters the simulator's gate: an import whose body
// stalls part-way holds back no snapshot, reset or other control-plane call, and goes on when the rest comes.
// The time bound only bounds a hang (a stalled body used to hold the gate until the server's request timeout).
import { request } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startHarness, type Harness } from "../support/harness.js"
import { exportText, parseFile } from "../support/log-file.js"
import { openRaw, requestHead } from "../support/raw-socket.js"
import { listen } from "../support/server.js"

const HANG_MS = 20_000

let source: Harness
let target: Harness
let server: { url: string; close: () => Promise<void> }
let text: string
beforeAll(async () => {
  source = await startHarness()
  text = await exportText(source)
  target = await startHarness({ sim: { defaultWorkspace: false, seed: "harness" } })
  server = await listen(target.app)
})
afterAll(async () => {
  await server?.close()
  await target?.close()
  await source?.close()
})

const bounded = <A>(p: Promise<A>, what: string): Promise<A> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: no answer within ${HANG_MS} ms (held by the stalled import)`)), HANG_MS)
    p.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e: unknown) => (clearTimeout(timer), reject(e)),
    )
  })

const admin = async (method: "GET" | "POST", path: string) => {
  const res = await bounded(
    request(server.url + path, { method, headers: { authorization: `Bearer ${target.sim.adminToken}` } }),
    `${method} ${path}`,
  )
  return { status: res.statusCode, body: (await res.body.json()) as any }
}

describe("a stalled POST /_sim/import", () => {
  it("holds back no snapshot, health or reset; once the rest of the log comes it imports it whole", async () => {
    const bytes = Buffer.from(text)
    const c = await openRaw(server.url)
    c.write(
      requestHead("POST", "/_sim/import", {
        authorization: `Bearer ${target.sim.adminToken}`,
        "content-type": "application/x-ndjson",
        "content-length": String(bytes.length),
      }),
    )
    const half = Math.floor(bytes.length / 2)
    c.write(bytes.subarray(0, half))

    expect((await admin("GET", "/_sim/health")).status).toBe(200)
    const snap = await admin("POST", "/_sim/snapshots")
    expect(snap.status).toBe(201)
    expect((await admin("POST", "/_sim/reset")).status).toBe(200)
    expect((await admin("GET", "/_sim/health")).body.position).toBe(-1)

    c.write(bytes.subarray(half))
    const answer = await bounded(c.answer(), "the import")
    const imported = JSON.parse(answer.body) as { events: number; position: number }
    expect([answer.status, imported.events]).toEqual([200, parseFile(text).events.length])
    expect((await admin("GET", "/_sim/health")).body.position).toBe(imported.position)
    c.kill()
  })
})
