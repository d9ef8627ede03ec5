// The webhook reads of the control plane as of an earlier log position (the dashboard's timeline): each
// subscription, its counts and each delivery with the attempts recorded by then, equal to what they were.
import { afterEach, beforeEach, expect, it } from "vitest"
import { startScenario, type Scenario } from "./scenario.js"

let s: Scenario
beforeEach(async () => {
  s = await startScenario()
})
afterEach(async () => s.close())

const idle = () => s.h.sim.webhooks!.idle()
const position = () => Number(s.h.sim.models.position)
const get = async (url: string) => {
  const r = await s.h.admin<any>("GET", url)
  expect(r.status).toBe(200)
  return r.body
}

it("answers subscriptions and deliveries as they were at each position, and nothing before they existed", async () => {
  const beforeAll = position()
  let calls = 0
  s.rx.answer = () => ({ status: ++calls === 1 ? 500 : 200 })
  const sub = (await s.subscribe()).body
  const subscribed = position()
  await s.deposit()
  await s.rx.waitFor(1)
  await idle()
  const failedOnce = position()
  const [pending] = await s.deliveriesOf(sub.id)
  const subscriptionThen = await get(`/_sim/webhooks/${sub.id}`)
  await s.advance(10)
  await s.rx.waitFor(2)
  await idle()
  const [delivered] = await s.deliveriesOf(sub.id)
  expect([pending.status, delivered.status]).toEqual(["pending", "delivered"])

  // Then: the pending delivery with its one failed attempt, exactly as read at the time.
  expect(await s.deliveriesOf(sub.id, `?asOf=position:${failedOnce}`)).toEqual([pending])
  expect(await get(`/_sim/webhooks/${sub.id}?asOf=position:${failedOnce}`)).toEqual(subscriptionThen)
  expect((await get(`/_sim/webhooks?asOf=position:${failedOnce}`)).webhooks).toEqual([subscriptionThen])
  // Now: delivered after its second attempt.
  expect(await s.deliveriesOf(sub.id, `?asOf=position:${position()}`)).toEqual([delivered])
  expect((await get(`/_sim/webhooks/${sub.id}`)).deliveries).toEqual({ total: 1, pending: 0, delivered: 1, givenUp: 0 })
  // Before the deposit: the subscription without deliveries; before the subscription: nothing.
  expect(await s.deliveriesOf(sub.id, `?asOf=position:${subscribed}`)).toEqual([])
  expect((await get(`/_sim/webhooks/${sub.id}?asOf=position:${subscribed}`)).deliveries).toEqual({
    total: 0,
    pending: 0,
    delivered: 0,
    givenUp: 0,
  })
  expect((await get(`/_sim/webhooks?asOf=position:${beforeAll}`)).webhooks).toEqual([])
  const missing = await s.h.admin<any>("GET", `/_sim/webhooks/${sub.id}/deliveries?asOf=position:${beforeAll}`)
  expect([missing.status, missing.body.error.code]).toEqual([404, "resource_not_found"])
})

it("shows a deleted subscription until its deletion, with its pending delivery cancelled only from then", async () => {
  s.rx.answer = () => ({ status: 500 })
  const sub = (await s.subscribe()).body
  await s.deposit()
  await s.rx.waitFor(1)
  await idle()
  const beforeDelete = position()
  expect((await s.h.admin("DELETE", `/_sim/webhooks/${sub.id}`)).status).toBe(200)
  expect((await get("/_sim/webhooks")).webhooks).toEqual([])
  const then = await get(`/_sim/webhooks/${sub.id}?asOf=position:${beforeDelete}`)
  expect([then.status, then.deliveries]).toEqual(["active", { total: 1, pending: 1, delivered: 0, givenUp: 0 }])
  const [d] = await s.deliveriesOf(sub.id, `?asOf=position:${beforeDelete}`)
  expect(d).toMatchObject({ status: "pending", attempts: [{ statusCode: 500, result: "retrying" }] })
})

it("refuses a malformed or future asOf (400) and an unknown query parameter (409), as the other reads do", async () => {
  const sub = (await s.subscribe()).body
  for (const [url, status, code] of [
    [`/_sim/webhooks?asOf=yesterday`, 400, "invalid_sim_as_of"],
    [`/_sim/webhooks/${sub.id}?asOf=position:99999999`, 400, "invalid_sim_as_of"],
    [`/_sim/webhooks/${sub.id}/deliveries?asOf=position:-1`, 400, "invalid_sim_as_of"],
    [`/_sim/webhooks?when=now`, 409, "extra_query_attributes"],
  ] as const) {
    const r = await s.h.admin<any>("GET", url)
    expect([r.status, r.body.error.code]).toEqual([status, code])
  }
})
