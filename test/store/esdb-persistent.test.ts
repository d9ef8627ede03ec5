// The double's persistent subscriptions, through the real client, as EventStoreDB behaves: competing consumers each get
// a share, nothing twice while acknowledged; nack retry, message timeout and a consumer gone give the message to
// another consumer with its retry count; maxRetryCount parks; the group resumes from its checkpoint after a restart.
import { afterEach, describe, expect, it } from "vitest"
import {
  EventStoreDBClient,
  PersistentSubscriptionDoesNotExistError,
  PersistentSubscriptionExistsError,
  START,
  eventTypeFilter,
  jsonEvent,
  persistentSubscriptionToAllSettingsFromDefaults,
} from "@eventstore/db-client"
import type { PersistentSubscriptionToAll, PersistentSubscriptionToAllResolvedEvent } from "@eventstore/db-client"
import { startEsdbDouble, type EsdbDouble } from "../support/esdb-double/index.js"
import { eventually } from "../support/sim-process.js"

let double: EsdbDouble | undefined
const clients: Array<EventStoreDBClient> = []
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose()))
  await double?.stop()
  double = undefined
})

const connect = (d: EsdbDouble) => {
  const c = EventStoreDBClient.connectionString(d.connectionString)
  clients.push(c)
  return c
}

const write = async (c: EventStoreDBClient, n: number, type = "Thing") => {
  for (let i = 0; i < n; i++) await c.appendToStream(`things-${i % 3}`, [jsonEvent({ type, data: { i } })])
}

interface Seen {
  readonly sub: PersistentSubscriptionToAll
  readonly events: Array<PersistentSubscriptionToAllResolvedEvent>
}

const consume = (c: EventStoreDBClient, group: string, bufferSize = 10): Seen => {
  const sub = c.subscribeToPersistentSubscriptionToAll(group, { bufferSize })
  const events: Array<PersistentSubscriptionToAllResolvedEvent> = []
  sub.on("data", (e: PersistentSubscriptionToAllResolvedEvent) => events.push(e))
  sub.on("error", () => {})
  return { sub, events }
}

const settings = (changes: Parameters<typeof persistentSubscriptionToAllSettingsFromDefaults>[0] = {}) =>
  persistentSubscriptionToAllSettingsFromDefaults({ startFrom: START, checkPointLowerBound: 1, checkPointAfter: 100, ...changes })
const things = { filter: eventTypeFilter({ prefixes: ["Thing"] }) }
const iOf = (e: PersistentSubscriptionToAllResolvedEvent) => (e.event!.data as { i: number }).i

describe("persistent subscriptions on the EventStoreDB double", () => {
  it("share the filtered events among competing consumers, each once while acknowledged", async () => {
    double = await startEsdbDouble()
    const c = connect(double)
    await c.createPersistentSubscriptionToAll("g", settings(), things)
    await expect(c.createPersistentSubscriptionToAll("g", settings(), things)).rejects.toBeInstanceOf(PersistentSubscriptionExistsError)
    const a = consume(c, "g")
    const b = consume(connect(double), "g")
    for (const s of [a, b]) s.sub.on("data", (e: PersistentSubscriptionToAllResolvedEvent) => void s.sub.ack(e))
    await write(c, 40)
    await write(c, 5, "Other")
    await eventually(async () => a.events.length + b.events.length >= 40, 10_000)
    await new Promise((r) => setTimeout(r, 300))
    const all = [...a.events, ...b.events].map(iOf).sort((x, y) => x - y)
    expect(all).toEqual(Array.from({ length: 40 }, (_, i) => i))
    expect(a.events.length).toBeGreaterThan(0)
    expect(b.events.length).toBeGreaterThan(0)
    expect([...a.events, ...b.events].every((e) => e.retryCount === 0)).toBe(true)
  })

  it("redeliver a nacked, a timed-out and an abandoned message to another consumer, with its retry count", async () => {
    double = await startEsdbDouble()
    const c = connect(double)
    await c.createPersistentSubscriptionToAll("g", settings({ messageTimeout: 500 }), things)
    const a = consume(c, "g", 1)
    await eventually(async () => (await c.getPersistentSubscriptionToAllInfo("g")).connections.length === 1, 5_000)
    const b = consume(connect(double), "g", 1)
    await eventually(async () => (await c.getPersistentSubscriptionToAllInfo("g")).connections.length === 2, 5_000)
    await write(c, 1)
    // Round robin: a first; nacked, it goes to b.
    await eventually(async () => a.events.length === 1, 5_000)
    await a.sub.nack("retry", "not now", a.events[0]!)
    await eventually(async () => b.events.length === 1, 5_000)
    expect(b.events[0]!.retryCount).toBe(1)
    // b holds it past the message timeout: a gets it again.
    await eventually(async () => a.events.length === 2, 5_000)
    expect(a.events[1]!.retryCount).toBe(2)
    // a goes away holding it: b gets it.
    await a.sub.unsubscribe()
    await eventually(async () => b.events.length === 2, 5_000)
    expect(b.events[1]!.retryCount).toBe(3)
    expect(iOf(b.events[1]!)).toBe(0)
    await b.sub.ack(b.events[1]!)
    await new Promise((r) => setTimeout(r, 800))
    expect(b.events).toHaveLength(2)
    expect((await c.getPersistentSubscriptionToAllInfo("g")).stats.totalInFlightMessages).toBe(0)
  })

  it("park a message after maxRetryCount, and refuse a group that does not exist", async () => {
    double = await startEsdbDouble()
    const c = connect(double)
    await c.createPersistentSubscriptionToAll("g", settings({ maxRetryCount: 2 }), things)
    const a = consume(c, "g")
    a.sub.on("data", (e: PersistentSubscriptionToAllResolvedEvent) => void a.sub.nack("retry", "failing", e))
    await write(c, 1)
    await eventually(async () => (await c.getPersistentSubscriptionToAllInfo("g")).stats.parkedMessageCount === 1n, 5_000)
    expect(a.events.map((e) => e.retryCount)).toEqual([0, 1, 2])
    expect(double.state.stream("$persistentsubscription-$all::g-parked")).toHaveLength(1)
    const missing = consume(c, "nope")
    const error = await new Promise((resolve) => missing.sub.once("error", resolve))
    expect(error).toBeInstanceOf(PersistentSubscriptionDoesNotExistError)
  })

  it("resume from the checkpoint after a server restart: acknowledged events are not given again", async () => {
    double = await startEsdbDouble()
    const port = double.port
    const c = connect(double)
    await c.createPersistentSubscriptionToAll("g", settings(), things)
    const a = consume(c, "g")
    a.sub.on("data", (e: PersistentSubscriptionToAllResolvedEvent) => void (iOf(e) < 6 ? a.sub.ack(e) : undefined))
    await write(c, 10)
    await eventually(async () => a.events.length === 10, 5_000)
    await eventually(async () => (double!.state.stream("$persistentsubscription-$all::g-checkpoint") ?? []).length > 0, 5_000)
    await eventually(async () => {
      const cps = double!.state.stream("$persistentsubscription-$all::g-checkpoint") ?? []
      const last = JSON.parse(new TextDecoder().decode(cps[cps.length - 1]!.data)) as string
      return last === `C:${a.events[5]!.event!.position.commit}/P:${a.events[5]!.event!.position.commit}`
    }, 5_000)
    const state = double.state
    await double.stop()
    double = await startEsdbDouble({ port, state })
    const again = consume(connect(double), "g")
    await eventually(async () => again.events.length === 4, 10_000)
    expect(again.events.map(iOf)).toEqual([6, 7, 8, 9])
  })
})
