// A bounded fuzz over a real socket: a few thousand requests, valid and not, on several kept-alive connections at
// once. Every answer must be framed right (undici is strict), none may be a 5xx, every error must be in its
// plane's shape, and no refused request may have appended an event. Snapshots, reverts and resets come among them in
// every spelling, and clients that cut off, break or drip their bodies: nothing wedges, and the server still serves.
import { Effect } from "effect"
import type { Client } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createApp } from "../../src/api/app.js"
import { startHarness, type Harness } from "../support/harness.js"
import { listen } from "../support/server.js"
import { controlPlane, fuzzPlans, isUnreachedPosition, toCall, worldReplacing } from "../support/fuzz-requests.js"
import { sendMisbehaving } from "../support/fuzz-misbehave.js"
import { type Answer, framingFault, isApiErrorShape, isSimErrorShape, send, strictConnection } from "../support/strict-http.js"

const REQUESTS = 2_400
const CONNECTIONS = 4
const LIMIT = 16 * 1024
const SEED = Number(process.env.FUZZ_SEED ?? 20_2611)

let h: Harness
let server: { url: string; close: () => Promise<void> }
const connections: Array<Client> = []
beforeAll(async () => {
  h = await startHarness()
  // Failed authentications unlimited here: the fuzz sends hundreds on purpose (auth-limits.test.ts covers the limit).
  server = await listen(createApp(h.sim, { bodyLimit: LIMIT, log: { error: () => {}, info: () => {} }, authFailureLimit: false }))
})
afterAll(async () => {
  await Promise.all(connections.map((c) => c.close()))
  await server.close()
  await h.close()
})

describe("fuzz over a real socket", () => {
  it(`${REQUESTS} mixed requests on ${CONNECTIONS} kept-alive connections: framed, no 5xx, errors in shape, nothing written by a refusal`, async () => {
    const plans = fuzzPlans(REQUESTS, SEED)
    const target = { testVaultId: h.testVaultId, creds: h.creds, adminToken: h.sim.adminToken, bodyLimit: LIMIT }
    const before = await Effect.runPromise(h.sim.store.headPosition)
    const accepted = new Set<string>()
    const refused = new Set<string>()
    const faults: Array<string> = []
    const statuses = new Map<number, number>()
    let misbehaved = 0
    const worldDone: Array<number> = []

    const lane = async (lane: number) => {
      const c = strictConnection(server.url)
      connections.push(c)
      for (let i = lane; i < plans.length; i += CONNECTIONS) {
        const plan = plans[i]!
        const call = toCall(target, plan)
        const where = `#${i} ${call.method} ${call.path.slice(0, 120)}${plan.misbehave !== undefined ? ` (${plan.misbehave})` : ""}`
        let answer: Answer | undefined
        try {
          answer = plan.misbehave !== undefined ? await sendMisbehaving(server.url, call, plan.misbehave) : await send(c, call)
        } catch (error) {
          // The connection is gone: the lane stops rather than wait out a timeout per request.
          faults.push(`${where}: transport error ${String(error)}`)
          return
        }
        if (answer === undefined) {
          misbehaved++
          continue
        }
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
        if (worldReplacing(call)) worldDone.push(answer.status)
        const framing = framingFault(answer)
        if (framing !== undefined) faults.push(`${where}: ${framing}`)
        if (answer.status >= 500 && !isUnreachedPosition(call, answer))
          faults.push(`${where}: ${answer.status} ${answer.text.slice(0, 200)}`)
        let body: unknown
        try {
          body = JSON.parse(answer.text)
        } catch {
          faults.push(`${where}: not JSON: ${answer.text.slice(0, 200)}`)
          continue
        }
        const requestId = (body as { requestId?: unknown }).requestId
        if (answer.status >= 400) {
          if (!(isApiErrorShape(body) || (controlPlane(call) && isSimErrorShape(body))))
            faults.push(`${where}: ${answer.status} outside the error shape: ${answer.text.slice(0, 200)}`)
          if (typeof requestId === "string") refused.add(requestId)
        } else if (typeof requestId === "string") accepted.add(requestId)
      }
    }
    await Promise.all(Array.from({ length: CONNECTIONS }, (_, i) => lane(i)))

    expect(faults.slice(0, 20)).toEqual([])
    const written = await Effect.runPromise(h.sim.store.readAll({ fromPosition: before + 1n }))
    const byRefused = written.filter((e) => e.metadata.requestId !== undefined && refused.has(e.metadata.requestId))
    const unexplained = written.filter((e) => e.metadata.requestId === undefined || !accepted.has(e.metadata.requestId))
    expect(byRefused.map((e) => `${e.type} ${e.metadata.requestId}`)).toEqual([])
    expect(unexplained.map((e) => `${e.type} ${e.metadata.requestId}`)).toEqual([])
    // The mix really mixed: successes, writes among them, and refusals.
    expect([...statuses.keys()].some((s) => s === 201)).toBe(true)
    expect([...statuses.keys()].some((s) => s === 200)).toBe(true)
    expect([...statuses.keys()].filter((s) => s >= 400).length).toBeGreaterThan(5)
    // Snapshots, reverts and resets among them (in every spelling), and clients that misbehaved with their bodies.
    expect(worldDone.filter((s) => s === 200 || s === 201).length).toBeGreaterThan(5)
    expect(misbehaved).toBeGreaterThan(5)
    // Still serving: health and a signed read.
    const after = strictConnection(server.url)
    connections.push(after)
    expect((await send(after, { method: "GET", path: "/_sim/health" })).status).toBe(200)
    expect(
      (
        await send(
          after,
          toCall(target, { method: "GET", path: () => "/vaults", auth: "signed", headers: { "x-api-version": "2024-05-09" } }),
        )
      ).status,
    ).toBe(200)
  }, 300_000)
})
