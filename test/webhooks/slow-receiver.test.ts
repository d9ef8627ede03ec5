// A receiver that does not answer holds delivery slots, never the API: signed reads are answered meanwhile.
// How fast they stay is the webhooks benchmark's figure (npm run bench -- webhooks), not this test's.
import { expect, it } from "vitest"
import { CustodyClient } from "../../src/client/index.js"
import { createKey } from "../support/harness.js"
import { listen } from "../support/server.js"
import { startScenario } from "./scenario.js"

it("answers signed GET /vaults while every delivery slot is held by a receiver that does not answer", { timeout: 60_000 }, async () => {
  // A small bound makes the test short: 16 slots held by the silent receiver, 8 deliveries waiting for one. The
  // delivery timeout is far longer than the test, so a slot is held however slowly a loaded machine runs it (with
  // the default 5 s, a delivery gave up while the reads ran and freed its slot).
  const s = await startScenario({ webhooks: { concurrency: 16, timeoutMs: 600_000 } })
  const server = await listen(s.h.app)
  let release = () => {}
  const released = new Promise<void>((resolve) => (release = resolve))
  try {
    s.rx.answer = () => ({ status: 200, until: released })
    await s.subscribe()
    for (let i = 0; i < 24; i++) await s.deposit(String(i + 1))
    const credentials = await createKey(s.h, { rateLimit: { perSecond: 10_000, burst: 10_000 } })
    const client = new CustodyClient({ baseUrl: server.url, credentials })
    await s.rx.waitFor(16, 30_000)
    for (let i = 0; i < 50; i++) {
      const r = await client.listVaults()
      expect(r.status).toBe(200)
      // Still held: no slot came free, so no waiting delivery went out.
      expect(s.h.sim.webhooks!.stats().inFlight).toBe(16)
      expect(s.rx.deliveries()).toHaveLength(16)
    }
    // Once the receiver answers, the slots free up and the last 8 deliveries follow.
    release()
    await s.rx.waitFor(24, 30_000)
    await s.h.sim.webhooks!.idle()
    expect(s.h.sim.webhooks!.stats()).toMatchObject({ inFlight: 0, delivered: 24 })
  } finally {
    release()
    await server.close()
    await s.close()
  }
})
