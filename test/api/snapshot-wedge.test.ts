// Nothing a client does to its own request can wedge the server through snapshots: a percent-encoded spelling of a
// world-replacing route, a body cut off mid-request (a malformed chunk, a client that dies while its request waits
// on x-sim-min-position), a body that arrives slowly or never. Each time, over real sockets, a snapshot, a revert
// and a reset still answer, and so do health and a signed read. The time bounds only bound a hang.
import { request } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createApp } from "../../src/api/app.js"
import { signRequest } from "../../src/client/signing.js"
import { startHarness, type Harness } from "../support/harness.js"
import { openRaw, requestHead, type RawConnection } from "../support/raw-socket.js"
import { listen } from "../support/server.js"
import { eventually } from "../support/sim-process.js"

const HANG_MS = 20_000

let h: Harness
let server: { url: string; close: () => Promise<void> }
const logged: Array<string> = []
const open: Array<RawConnection> = []
beforeAll(async () => {
  h = await startHarness()
  server = await listen(
    createApp(h.sim, {
      log: { error: (e) => logged.push(`error ${JSON.stringify(e)}`), info: (m) => logged.push(m) },
      authFailureLimit: false,
    }),
  )
})
afterAll(async () => {
  for (const c of open) c.kill()
  await server.close()
  await h.close()
})

const raw = async () => {
  const c = await openRaw(server.url)
  open.push(c)
  return c
}

/** Rejects when `p` has not settled within HANG_MS: what would otherwise be a hang of the whole suite. */
const bounded = <A>(p: Promise<A>, what: string): Promise<A> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: no answer within ${HANG_MS} ms (wedged)`)), HANG_MS)
    p.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e: unknown) => (clearTimeout(timer), reject(e)),
    )
  })

const admin = async (method: "GET" | "POST", path: string) => {
  const res = await bounded(
    request(server.url + path, { method, headers: { authorization: `Bearer ${h.sim.adminToken}` } }),
    `${method} ${path}`,
  )
  const text = await res.body.text()
  return { status: res.statusCode, body: JSON.parse(text) as any }
}

// The fixture's key (a reset keeps it), every call pinned to 2024-05-09.
const signedHeaders = (method: string, path: string, body: string) => ({
  ...signRequest(h.creds, { method, url: path, body }),
  "content-type": "application/json",
  "x-api-version": "2024-05-09",
})

/** Health, a signed read, and a snapshot, a revert to it and a reset: all answer. */
const stillServing = async () => {
  expect((await admin("GET", "/_sim/health")).status).toBe(200)
  const read = await bounded(request(server.url + "/vaults", { headers: signedHeaders("GET", "/vaults", "") }), "GET /vaults")
  expect(read.statusCode).toBe(200)
  expect(((await read.body.json()) as { apiVersion: string }).apiVersion).toBe("2024-05-09")
  const snap = await admin("POST", "/_sim/snapshots")
  expect(snap.status).toBe(201)
  expect((await admin("POST", `/_sim/snapshots/${snap.body.id}/revert`)).status).toBe(200)
}

const vaultAccount = () => `/vaults/${h.testVaultId}/vault-account`
const accountBody = JSON.stringify({ data: { item: { name: "cut off", color: "#00AA00", isHiddenInDashboard: false } } })

describe("world-replacing routes, however their path is spelled", () => {
  it("POST /_sim/rese%74, /_sim/%73napshots, /%5Fsim/reset and /_sim/snapshots/%31/revert run (reset, snapshot, revert) and answer", async () => {
    const reset = await admin("POST", "/_sim/rese%74")
    expect(reset.status).toBe(200)
    expect(reset.body).toEqual({ position: expect.any(Number), time: expect.any(Number), timeMs: expect.any(Number) })
    expect((await admin("GET", "/_sim/snapshots")).body).toEqual({ snapshots: [] })
    const taken = await admin("POST", "/_sim/%73napshots")
    expect(taken.status).toBe(201)
    expect((await admin("GET", "/_sim/snapshots")).body.snapshots.map((s: { id: string }) => s.id)).toEqual([taken.body.id])
    const id = String(taken.body.id)
    const encoded = [...id].map((ch) => `%${ch.charCodeAt(0).toString(16)}`).join("")
    const reverted = await admin("POST", `/_sim/snapshots/${encoded}/revert`)
    expect(reverted.status).toBe(200)
    expect(reverted.body).toEqual(taken.body)
    const again = await admin("POST", "/%5Fsim/reset")
    expect(again.status).toBe(200)
    expect((await admin("GET", "/_sim/snapshots")).body).toEqual({ snapshots: [] })
    await stillServing()
  })
})

describe("a body cut off mid-request", () => {
  it("a malformed chunk: the request ends, and snapshots, reverts, health and reads go on", async () => {
    const c = await raw()
    c.write(requestHead("POST", vaultAccount(), { ...signedHeaders("POST", vaultAccount(), accountBody), "transfer-encoding": "chunked" }))
    c.write(`10\r\n${accountBody.slice(0, 16)}\r\nzz-not-a-chunk-size\r\n`)
    await bounded(c.closed, "the server closing the connection after a malformed chunk")
    await stillServing()
  })

  it("a client that dies while its request waits on x-sim-min-position: the request is abandoned, nothing waits for it", async () => {
    const before = logged.length
    const c = await raw()
    const path = vaultAccount()
    // A position one past the log's head: the request waits for the next write.
    const next = (await admin("GET", "/_sim/health")).body.position + 1
    c.write(
      requestHead("POST", path, {
        ...signedHeaders("POST", path, accountBody),
        "content-length": String(accountBody.length),
        "x-sim-min-position": String(next),
      }),
    )
    c.write(accountBody.slice(0, 10))
    await new Promise((resolve) => setTimeout(resolve, 50))
    c.kill()
    await stillServing()
    const vault = await bounded(
      request(server.url + "/_sim/vaults", {
        method: "POST",
        headers: { authorization: `Bearer ${h.sim.adminToken}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "the next write", type: "test" }),
      }),
      "POST /_sim/vaults",
    )
    expect(vault.statusCode).toBe(201)
    await vault.body.text()
    // The position reached, the request reads a body that will never come: it ends at once, logged as cut off.
    await eventually(async () => logged.slice(before).some((m) => m.includes("request body aborted by the client")), HANG_MS)
    await stillServing()
    expect(logged.filter((m) => m.startsWith("error"))).toEqual([])
  })

  it("a client that dies mid-body on the control plane (authorized, waiting on x-sim-min-position): the same", async () => {
    const before = logged.length
    const c = await raw()
    const body = JSON.stringify({ seconds: 1 })
    c.write(
      requestHead("POST", "/_sim/clock/advance", {
        authorization: `Bearer ${h.sim.adminToken}`,
        "content-type": "application/json",
        "content-length": String(body.length + 5),
        "x-sim-min-position": "999999999",
      }),
    )
    c.write(body)
    await new Promise((resolve) => setTimeout(resolve, 50))
    c.kill()
    await stillServing()
    await eventually(
      async () => logged.slice(before).some((m) => m.includes("/_sim/clock/advance: request body aborted by the client")),
      HANG_MS,
    )
    await stillServing()
  })
})

describe("a body that arrives slowly or never", () => {
  it("held open by an unauthenticated client, a signed client and an authorized control-plane client: snapshots, reverts and resets do not wait for them", async () => {
    const slow = await Promise.all([raw(), raw(), raw(), raw()])
    const path = vaultAccount()
    slow[0]!.write(requestHead("POST", path, { "content-type": "application/json", "content-length": "1000" }) + '{"data":')
    slow[1]!.write(
      requestHead("POST", path, { ...signedHeaders("POST", path, accountBody), "content-length": String(accountBody.length) }) +
        accountBody.slice(0, 20),
    )
    slow[2]!.write(
      requestHead("POST", "/_sim/vaults", { "content-type": "application/json", "transfer-encoding": "chunked" }) + '4\r\n{"na\r\n',
    )
    slow[3]!.write(
      requestHead("POST", "/_sim/vaults", {
        authorization: `Bearer ${h.sim.adminToken}`,
        "content-type": "application/json",
        "content-length": "200",
      }) + '{"name":',
    )
    await new Promise((resolve) => setTimeout(resolve, 50))
    await stillServing()
    const reset = await admin("POST", "/_sim/reset")
    expect(reset.status).toBe(200)
    // Finished after the reset, the writes run in the world they then find.
    slow[1]!.write(accountBody.slice(20))
    expect((await bounded(slow[1]!.answer(), "the slow signed write")).status).toBe(201)
    slow[3]!.write(`${JSON.stringify("slow vault")},"type":"test"}`.padEnd(200 - '{"name":'.length, " "))
    expect((await bounded(slow[3]!.answer(), "the slow control-plane write")).status).toBe(201)
    slow[0]!.kill()
    slow[2]!.kill()
    await stillServing()
  })
})
