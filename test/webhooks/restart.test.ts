// Deliveries survive a restart: a simulator reopened on the same sqlite file delivers what was pending or due.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, expect, it } from "vitest"
import { makeSqliteStore } from "../../src/store/sqlite.js"
import { startHarness, T0 } from "../support/harness.js"
import { startScenario } from "./scenario.js"
import type { Receiver } from "./receiver.js"

const dirs: Array<string> = []
const receivers: Array<Receiver> = []
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close()
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

it("delivers a pending retry, and a notification never attempted, after a restart", async () => {
  const dir = mkdtempSync(join(tmpdir(), "custody-sim-webhooks-"))
  dirs.push(dir)
  const file = join(dir, "events.db")
  const s = await startScenario({ store: makeSqliteStore({ file }) })
  receivers.push(s.rx)
  s.rx.answer = () => ({ status: 500 })
  const sub = (await s.subscribe()).body
  const retried = await s.deposit("1")
  await s.rx.waitFor(1)
  await s.h.sim.webhooks!.idle()
  const before = await s.deliveriesOf(sub.id)
  expect(before).toMatchObject([{ subject: retried, status: "pending", nextAttemptAt: T0 + 10_000 }])
  // The worker stops before the next notification: it is in the log, never attempted.
  await s.h.sim.webhooks!.stop()
  const unattempted = await s.deposit("2")
  expect(s.rx.deliveries()).toHaveLength(1)
  await s.h.close()

  s.rx.answer = () => ({ status: 200 })
  const h = await startHarness({ sim: { store: makeSqliteStore({ file }) } })
  try {
    await s.rx.waitFor(2)
    expect(s.rx.deliveries()[1]!.body.data.item.transactionId).toBe(unattempted)
    await h.sim.webhooks!.idle()
    expect(s.rx.deliveries()).toHaveLength(2)
    expect((await h.admin("POST", "/_sim/clock/advance", { seconds: 10 })).status).toBe(200)
    await s.rx.waitFor(3)
    await h.sim.webhooks!.idle()
    const [first, second, third] = s.rx.deliveries()
    expect(third!.body.data.item.transactionId).toBe(retried)
    expect(third!.body.idempotencyKey).toBe(first!.body.idempotencyKey)
    expect(second!.body.idempotencyKey).not.toBe(first!.body.idempotencyKey)
    const after = (await h.admin<any>("GET", `/_sim/webhooks/${sub.id}/deliveries`)).body.deliveries
    expect(
      after.map((d: { subject: string; status: string; attempts: Array<{ statusCode: number }> }) => [
        d.subject,
        d.status,
        d.attempts.map((a) => a.statusCode),
      ]),
    ).toEqual([
      [retried, "delivered", [500, 200]],
      [unattempted, "delivered", [200]],
    ])
  } finally {
    await h.close()
  }
})
