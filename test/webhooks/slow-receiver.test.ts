// A receiver that takes 2 s to answer holds delivery slots, never the API: signed reads stay fast meanwhile.
import { expect, it } from "vitest"
import { CustodyClient } from "../../src/client/index.js"
import { createKey } from "../support/harness.js"
import { listen } from "../support/server.js"
import { startScenario } from "./scenario.js"

it("keeps signed GET /vaults fast while deliveries to a slow receiver are in flight", { timeout: 20_000 }, async () => {
  // A small bound makes the test short: 16 slots held by the slow receiver, 8 deliveries waiting for one.
  const s = await startScenario({ webhooks: { concurrency: 16 } })
  const server = await listen(s.h.app)
  try {
    s.rx.answer = () => ({ status: 200, delayMs: 2_000 })
    await s.subscribe()
    for (let i = 0; i < 24; i++) await s.deposit(String(i + 1))
    const credentials = await createKey(s.h, { rateLimit: { perSecond: 10_000, burst: 10_000 } })
    const client = new CustodyClient({ baseUrl: server.url, credentials })
    await s.rx.waitFor(16)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(s.rx.deliveries()).toHaveLength(16)
    const latencies: Array<number> = []
    // The 16th delivery arrived by now and is answered 2 s after it arrived: a 1 s window sees slots held.
    const until = performance.now() + 1_000
    while (performance.now() < until) {
      const t0 = performance.now()
      const r = await client.listVaults()
      latencies.push(performance.now() - t0)
      expect(r.status).toBe(200)
      expect(s.h.sim.webhooks!.stats().inFlight).toBeGreaterThan(0)
    }
    expect(latencies.length).toBeGreaterThan(10)
    expect(Math.max(...latencies)).toBeLessThan(250)
    // The slots free up after 2 s; the last 8 deliveries follow.
    await s.rx.waitFor(24, 8_000)
    await s.h.sim.webhooks!.idle()
    expect(s.h.sim.webhooks!.stats()).toMatchObject({ inFlight: 0, delivered: 24 })
  } finally {
    await server.close()
    await s.close()
  }
})
