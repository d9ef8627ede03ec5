// Benchmark: worlds in one server (docs/worlds.md). Creating 1,000 worlds from a fixture over HTTP (median and p99
// per POST /_sim/worlds), the resident memory each idle world adds, and signed GET /vaults with 1,000 worlds present
// vs with one (interleaved rounds, the same process for both sides: what differs is the routing among 1,000 worlds).
import { loadavg } from "node:os"
import { request } from "undici"
import { createWorldsApp } from "../../src/api/app.js"
import type { Credentials } from "../../src/client/signing.js"
import { createSimulator, type Simulator } from "../../src/simulator.js"
import { makeMemoryStore } from "../../src/store/memory.js"
import { createWorlds, type Worlds } from "../../src/worlds/registry.js"
import { httpVsBareHono, serveLocal } from "./lib/http.js"
import { benchFixture } from "./lib/simulator.js"
import { fullGc, median, quantile } from "./lib/stats.js"
import { absoluteAtMost, ratioAtLeast, type Benchmark, type Measurement } from "./lib/types.js"

interface WorldsBench {
  readonly sim: Simulator
  readonly worlds: Worlds
  readonly fetch: ReturnType<typeof createWorldsApp>["fetch"]
  readonly close: () => Promise<void>
}

const startServer = async (): Promise<WorldsBench> => {
  const sim = await createSimulator({ store: makeMemoryStore(), fixture: benchFixture })
  // No webhook subscriptions here: the worker of each world would be idle anyway.
  const worlds = createWorlds({ server: sim, app: { log: { error: () => {}, info: () => {} } }, maxWorlds: 100_000 })
  return {
    sim,
    worlds,
    fetch: createWorldsApp(worlds.routing).fetch,
    close: async () => {
      await worlds.close()
      await sim.close()
    },
  }
}

/** The fixture each world is created from: the bench's vaults and keys, credentials drawn per world. */
const worldFixture = { ...benchFixture, seed: "bench-world" }

/**
 * Creates `n` worlds through POST /_sim/worlds; the ms each took (wall clock, and the process's CPU: client, server
 * and collector threads, which a loaded machine stretches less than the wall clock), and the first key of the last.
 */
const createMany = async (origin: string, adminToken: string, n: number) => {
  const times: Array<number> = []
  const cpu: Array<number> = []
  let key: Credentials | undefined
  const body = JSON.stringify({ fixture: worldFixture })
  for (let i = 0; i < n; i++) {
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    const res = await request(`${origin}/_sim/worlds`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body,
    })
    const answer = (await res.body.json()) as { apiKeys: Array<Credentials> }
    times.push(performance.now() - t0)
    const used = process.cpuUsage(c0)
    cpu.push((used.user + used.system) / 1000)
    if (res.statusCode !== 201) throw new Error(`POST /_sim/worlds answered ${res.statusCode}: ${JSON.stringify(answer)}`)
    key = answer.apiKeys[0]
  }
  return { times, cpu, key: key! }
}

export const worldsBench: Benchmark = {
  name: "worlds",
  description:
    "worlds in one server: POST /_sim/worlds from a fixture (median, p99 over 1,000), RSS per idle world, signed GET /vaults with 1,000 worlds vs one",
  budget: absoluteAtMost(5, "ms"),
  run: async (options) => {
    const count = options.quick ? 100 : 1000
    const many = await startServer()
    const one = await startServer()
    const served = await serveLocal(many.fetch)
    const servedOne = await serveLocal(one.fetch)
    try {
      fullGc()
      const rss0 = process.memoryUsage().rss
      const heap0 = process.memoryUsage().heapUsed
      const { times, cpu, key } = await createMany(served.origin, many.sim.adminToken, count)
      fullGc()
      const rssPerWorld = (process.memoryUsage().rss - rss0) / count / 2 ** 20
      const heapPerWorld = (process.memoryUsage().heapUsed - heap0) / count / 2 ** 20
      const lone = await createMany(servedOne.origin, one.sim.adminToken, 1)
      const load = loadavg()[0]!.toFixed(1)
      const note = `${count} worlds from a fixture of 2 vaults and 2 keys, sequential POSTs over one socket; CPU per creation median ${median(cpu).toFixed(2)} ms, p99 ${quantile(cpu, 0.99).toFixed(1)} ms; load ${load}`
      const creation: Array<Measurement> = [
        { label: "create median", subject: median(times), unit: "ms", budget: absoluteAtMost(5, "ms"), note },
        { label: "create p99", subject: quantile(times, 0.99), unit: "ms", budget: absoluteAtMost(20, "ms"), note },
        {
          label: "RSS per idle world",
          subject: rssPerWorld,
          unit: "MiB",
          budget: absoluteAtMost(2, "MiB"),
          note: `RSS grew ${(rssPerWorld * count).toFixed(1)} MiB for ${count} worlds; heap ${heapPerWorld.toFixed(3)} MiB per world`,
        },
      ]
      const reads = await httpVsBareHono({
        ...options,
        subject: many.fetch,
        baseline: one.fetch,
        request: { method: "GET", url: "/vaults" },
        sign: key,
        baselineRequest: { method: "GET", url: "/vaults" },
        baselineSign: lone.key,
      })
      return [...creation, { ...reads, label: `GET /vaults, ${count} worlds vs 1`, budget: ratioAtLeast(0.95) }]
    } finally {
      await served.close()
      await servedOne.close()
      await many.close()
      await one.close()
    }
  },
}
