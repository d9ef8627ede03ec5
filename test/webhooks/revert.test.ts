// A revert puts pending webhook deliveries back with their attempts and due times; the worker then delivers from
// the reverted world (attempts recorded after the snapshot are gone, and not repeated as if they had happened).
import { afterEach, beforeEach, expect, it } from "vitest"
import { startScenario, type Scenario } from "./scenario.js"

let s: Scenario
beforeEach(async () => {
  s = await startScenario()
})
afterEach(async () => s.close())

it("pending deliveries and their due times come back as they were at the snapshot", async () => {
  s.rx.answer = () => ({ status: 500 })
  const sub = (await s.subscribe()).body
  await s.deposit("2")
  await s.h.sim.webhooks!.idle()
  const [pending] = await s.deliveriesOf(sub.id)
  expect(pending).toMatchObject({ status: "pending", attempts: [{ attempt: 1, statusCode: 500 }] })
  const snap = await s.h.sim.snapshot()
  const atSnapshot = await s.deliveriesOf(sub.id)

  await s.advance(10)
  await s.h.sim.webhooks!.idle()
  expect((await s.deliveriesOf(sub.id))[0].attempts).toHaveLength(2)

  await s.h.sim.revert(snap.id)
  expect(await s.deliveriesOf(sub.id)).toEqual(atSnapshot)
  expect(s.h.sim.clock.now()).toBe(snap.time)

  s.rx.answer = () => ({ status: 200 })
  const received = s.rx.deliveries().length
  await s.advance(10)
  await s.rx.waitFor(received + 1)
  await s.h.sim.webhooks!.idle()
  const [delivered] = await s.deliveriesOf(sub.id)
  expect(delivered.status).toBe("delivered")
  expect(delivered.attempts.map((a: { attempt: number; statusCode: number }) => [a.attempt, a.statusCode])).toEqual([
    [1, 500],
    [2, 200],
  ])
  expect(delivered.attempts[1].at).toBe(atSnapshot[0].nextAttemptAt)
})
