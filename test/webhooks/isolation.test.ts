// Each subscription has its own queue, slots and connections: a receiver that never answers holds only its own, and
// another subscriber, on another origin or the same, gets every delivery meanwhile.
import { expect, it } from "vitest"
import { startReceiver } from "./receiver.js"
import { SECRET, startScenario } from "./scenario.js"

it("a hanging receiver delays only its own subscription's deliveries", { timeout: 180_000 }, async () => {
  // Attempts never time out within the test: the hanging receiver's slots stay held throughout.
  const s = await startScenario({ webhooks: { concurrency: 4, timeoutMs: 600_000 } })
  const healthy = await startReceiver()
  try {
    s.rx.answer = () => ({ status: 200, delayMs: 600_000 })
    expect((await s.subscribe()).status).toBe(201)
    expect((await s.h.admin("POST", "/_sim/webhooks", { url: healthy.url, secret: SECRET, events: ["*"] })).status).toBe(201)
    for (let i = 0; i < 12; i++) await s.deposit(String(i + 1))
    await s.rx.waitFor(4, 60_000)
    // Every notification reaches the healthy subscriber while the hanging one holds its 4 slots and has more queued.
    await healthy.waitFor(12, 60_000)
    const webhooks = (await s.h.admin<any>("GET", "/_sim/webhooks")).body
    const list: Array<{ id: string; url: string }> = Array.isArray(webhooks) ? webhooks : (webhooks.webhooks ?? webhooks.items)
    const hangingId = list.find((w) => w.url === s.rx.url)!.id
    const notifications = (await s.deliveriesOf(hangingId)).length
    expect(notifications).toBeGreaterThan(4)
    await healthy.waitFor(notifications, 60_000)
    expect(healthy.deliveries()).toHaveLength(notifications)
    expect(s.rx.deliveries()).toHaveLength(4)
  } finally {
    await healthy.close()
    await s.close()
  }
})

it("beside a hanging subscription on the same origin, another subscription gets every delivery", { timeout: 180_000 }, async () => {
  // One receiver (one origin) for both; the worker's 4 slots per subscription are as many connections as an origin
  // had in all when the connections were pooled per origin only.
  const s = await startScenario({ webhooks: { concurrency: 4, timeoutMs: 600_000 } })
  try {
    const hanging = (await s.subscribe()).body.id as string
    const other = await s.h.admin("POST", "/_sim/webhooks", { url: `${s.rx.url}/other`, secret: SECRET, events: ["*"] })
    expect(other.status).toBe(201)
    s.rx.answer = (r) => (r.body?.webhookId === hanging ? { status: 200, delayMs: 600_000 } : { status: 200 })
    for (let i = 0; i < 12; i++) await s.deposit(String(i + 1))
    const expected = (await s.deliveriesOf(other.body.id)).length
    expect(expected).toBeGreaterThan(4)
    // Bounds a hang only: before, the other subscription's deliveries waited behind the hanging ones' connections.
    await s.rx.waitFor(4 + expected, 60_000)
    const of = (id: string) => s.rx.deliveries().filter((d) => d.body.webhookId === id)
    expect(of(other.body.id)).toHaveLength(expected)
    expect(of(hanging)).toHaveLength(4)
  } finally {
    await s.close()
  }
})
