// x-sim-as-of on every read endpoint (#1, #2, #5, #8–#15): after every event of a scripted scenario the live
// answers are recorded (the log is fed one event at a time into a second simulator); then every position and
// every second of simulated time is asked again "as of" on the original, and the answers must be identical.
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { defaultOperations } from "../../src/api/app.js"
import { probedOperations, readProbes } from "../../src/api/digest/probes.js"
import type { CustodyClient } from "../../src/client/index.js"
import type { RecordedEvent } from "../../src/store/event-store.js"
import { startHarness, type Harness } from "../support/harness.js"
import { runScenario, scenarioFixture, type ScenarioIds } from "../support/scenario.js"
import { runTronSteps } from "../support/tron-steps.js"

interface Request {
  readonly path: string
  readonly query?: Record<string, string>
  readonly apiVersion?: string
}
type Answer = { status: number; body: unknown }

let a: Harness
let b: Harness
let ids: ScenarioIds
let events: ReadonlyArray<RecordedEvent>
let requests: ReadonlyArray<Request>
const live = new Map<bigint, ReadonlyArray<Answer>>()

const ask = async (client: CustodyClient, r: Request, asOf?: string): Promise<Answer> => {
  const headers = {
    ...(r.apiVersion !== undefined ? { "x-api-version": r.apiVersion } : {}),
    ...(asOf !== undefined ? { "x-sim-as-of": asOf } : {}),
  }
  const res = await client.call<unknown>("GET", r.path, { ...(r.query ? { query: r.query } : {}), headers })
  const { requestId: _r, ...body } = res.body as unknown as Record<string, unknown>
  return { status: res.status, body }
}
const askAll = (client: CustodyClient, asOf?: string) => Promise.all(requests.map((r) => ask(client, r, asOf)))

beforeAll(async () => {
  a = await startHarness({ fixture: scenarioFixture })
  ids = await runScenario(a)
  await runTronSteps(a, ids.testVaultId)
  events = await Effect.runPromise(a.sim.store.readAll())
  const probes = readProbes(a.sim.models, undefined, { includeStatic: true })
  requests = [
    ...probes.map((p) => ({ path: p.path, ...(p.apiVersion !== undefined ? { apiVersion: p.apiVersion } : {}) })),
    // Pages: cursors that exist only from some position on.
    { path: "/vaults", query: { limit: "1" } },
    { path: "/vaults", query: { limit: "1", startingAfter: ids.testVaultId } },
    { path: `/vaults/${ids.testVaultId}/transactions`, query: { limit: "2" } },
    { path: "/assets/TEST", query: { limit: "1" } },
    // Resources never created answer 404 at every point.
    { path: `/vaults/${"0".repeat(24)}/assets` },
    { path: `/transactionRequests/${"0".repeat(24)}` },
  ]
  b = await startHarness({ sim: { defaultWorkspace: false } })
  const bClient = b.clientFor(a.creds)
  for (const e of events) {
    await Effect.runPromise(
      b.sim.store.append(
        e.stream,
        [{ id: e.id, type: e.type, data: e.data, metadata: e.metadata }],
        e.revision === 0n ? "no_stream" : e.revision - 1n,
      ),
    )
    await b.sim.run(b.sim.runner.pull)
    expect(b.sim.models.position).toBe(e.position)
    live.set(e.position, await askAll(bClient))
  }
}, 300_000)
afterAll(async () => {
  await a?.close()
  await b?.close()
})

const mismatches = async (asOfOf: (p: bigint) => string, positions: Iterable<readonly [bigint, bigint]>) => {
  const out: Array<{ asOf: string; path: string; query?: Record<string, string>; live: Answer; answered: Answer }> = []
  for (const [at, expectedAt] of positions) {
    const expected = live.get(expectedAt)!
    const got = await askAll(a.client, asOfOf(at))
    got.forEach((answered, i) => {
      if (JSON.stringify(answered) !== JSON.stringify(expected[i]))
        out.push({ asOf: asOfOf(at), ...requests[i]!, live: expected[i]!, answered })
    })
  }
  return out
}

describe("x-sim-as-of answers what the endpoint answered live", () => {
  it("covers every GET operation of the app, and the scenario reaches each", () => {
    const gets = defaultOperations.filter((o) => o.method === "GET").map((o) => o.id)
    expect([...gets].sort()).toEqual([...probedOperations].sort())
    const reached = new Set(readProbes(a.sim.models, undefined, { includeStatic: true }).map((p) => p.opId))
    expect([...reached].sort()).toEqual([...probedOperations].sort())
    expect(events.length).toBeGreaterThanOrEqual(60)
  })

  it("position:<n> for every position of the log", async () => {
    const bad = await mismatches(
      (p) => `position:${p}`,
      events.map((e) => [e.position, e.position] as const),
    )
    expect(bad.slice(0, 3)).toEqual([])
  }, 300_000)

  it("time:<unix seconds> for every second with events, and the seconds between them", async () => {
    // "time:T" is the state after the last event at or before T (a frozen clock writes whole seconds).
    const lastAt = new Map<number, bigint>()
    for (const e of events) lastAt.set(Math.floor(e.metadata.at / 1000), e.position)
    const seconds = [...lastAt.keys()].sort((x, y) => x - y)
    const cases: Array<readonly [bigint, bigint]> = []
    seconds.forEach((s, i) => {
      cases.push([BigInt(s), lastAt.get(s)!])
      const next = seconds[i + 1]
      if (next !== undefined && next - s > 1) cases.push([BigInt(s + 1), lastAt.get(s)!])
    })
    expect(cases.length).toBeGreaterThan(5)
    const bad = await mismatches((t) => `time:${t}`, cases)
    expect(bad.slice(0, 3)).toEqual([])
  }, 300_000)

  it("a time before the first event answers an empty world", async () => {
    const first = Math.floor(events[0]!.metadata.at / 1000) - 1
    const vaults = await a.client.call<any>("GET", "/vaults", { headers: { "x-sim-as-of": `time:${first}` } })
    expect([vaults.status, vaults.body.data.items]).toEqual([200, []])
    const assets = await a.client.call<any>("GET", `/vaults/${ids.testVaultId}/assets`, { headers: { "x-sim-as-of": `time:${first}` } })
    expect(assets.status).toBe(404)
  })

  it("live answers of the original and the event-by-event replay agree at the head", async () => {
    expect(await askAll(a.client)).toEqual(live.get(events[events.length - 1]!.position))
  })
})

describe("x-sim-as-of refusals", () => {
  it("every read endpoint refuses a position beyond the log or a malformed value with 400 invalid_sim_as_of", async () => {
    const head = a.sim.models.position
    const values = [
      `position:${head + 1n}`,
      `position:${head + 1_000_000n}`,
      "position:-1",
      "position:1.5",
      "position:",
      "time:-5",
      "time:abc",
      "yesterday",
      "Position:1",
      "time:99999999999999999999",
    ]
    for (const r of requests)
      for (const v of values) {
        const res = await ask(a.client, r, v)
        expect([r.path, v, res.status, (res.body as { error?: { code: string } }).error?.code]).toEqual([
          r.path,
          v,
          400,
          "invalid_sim_as_of",
        ])
      }
  }, 120_000)
  it("the head position itself is accepted and equals the live answer", async () => {
    expect(await askAll(a.client, `position:${a.sim.models.position}`)).toEqual(await askAll(a.client))
  })
})
