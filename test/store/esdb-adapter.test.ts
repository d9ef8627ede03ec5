// esdb adapter specifics against the gRPC double: system events hidden, sparse positions, error translation, restarts.
import { randomUUID } from "node:crypto"
import { createServer } from "node:net"
import type { AddressInfo, Socket } from "node:net"
import { Effect, Exit, Fiber, Stream } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { EventStoreShape, NewEvent, StoreUnavailable } from "../../src/store/event-store.js"
import { makeEsdbStore } from "../../src/store/esdb.js"
import { createEsdbDoubleState, startEsdbDouble } from "../support/esdb-double/index.js"
import type { EsdbDouble } from "../support/esdb-double/index.js"

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect)
const failure = async <A, E>(effect: Effect.Effect<A, E>): Promise<E> => {
  const exit = await Effect.runPromise(Effect.exit(effect))
  if (Exit.isSuccess(exit)) throw new Error(`expected a failure, got ${String(exit.value)}`)
  const error = exit.cause.reasons.find((r) => r._tag === "Fail")
  if (error?._tag !== "Fail") throw new Error(`expected a typed failure, got ${String(exit.cause)}`)
  return error.error
}
const event = (type: string, n = 0): NewEvent => ({ id: randomUUID(), type, data: { n }, metadata: { at: n, schemaVersion: 1 } })
const stream = (name: string) => `${name}-${randomUUID().slice(0, 8)}`

describe.each([
  { serverFeatures: true, via: "BatchAppend" },
  { serverFeatures: false, via: "Append" },
])("esdb adapter ($via)", ({ serverFeatures }) => {
  let double: EsdbDouble
  let store: EventStoreShape & { close(): Promise<void> }
  beforeAll(async () => {
    double = await startEsdbDouble({ serverFeatures })
    store = makeEsdbStore(`${double.connectionString}&defaultDeadline=2000`)
  })
  afterAll(async () => {
    await store.close()
    await double.stop()
  })

  it("reports a wrong expected version with the actual revision or no_stream", async () => {
    const s = stream("account")
    expect(await failure(store.append(s, [event("Opened")], 0n))).toMatchObject({
      _tag: "WrongExpectedVersion",
      stream: s,
      expected: 0n,
      actual: "no_stream",
    })
    expect(await failure(store.append(s, [event("Opened")], "stream_exists"))).toMatchObject({ actual: "no_stream" })
    await run(store.append(s, [event("Opened"), event("Funded")], "no_stream"))
    expect(await failure(store.append(s, [event("Closed")], 5n))).toMatchObject({ _tag: "WrongExpectedVersion", expected: 5n, actual: 1n })
    expect(await failure(store.append(s, [event("Closed")], "no_stream"))).toMatchObject({ expected: "no_stream", actual: 1n })
    expect((await run(store.readStream(s))).events.map((e) => e.type)).toEqual(["Opened", "Funded"])
  })

  it("repeats an append with the same ids idempotently, with the original positions", async () => {
    const s = stream("account")
    const batch = [event("Opened"), event("Funded")]
    const first = await run(store.append(s, batch, "no_stream"))
    expect(await run(store.append(s, batch, "no_stream"))).toEqual(first)
    expect(await run(store.append(s, batch, "any"))).toEqual(first)
    expect(await failure(store.append(s, [batch[0]!, event("Other")], "no_stream"))).toMatchObject({
      _tag: "WrongExpectedVersion",
      actual: 1n,
    })
    expect((await run(store.readStream(s))).events).toHaveLength(2)
  })

  it("never returns system or link events from readAll or subscribeAll", async () => {
    const before = await run(store.headPosition)
    const s = stream("ledger")
    const mine: NewEvent[] = []
    for (let i = 0; i < 9; i++) {
      const e = event("Posted", i)
      mine.push(e)
      await run(store.append(s, [e], "any"))
      double.state.writeSystemEvent(`$ce-ledger`, "$>", new TextEncoder().encode(`${i}@${s}`), "application/octet-stream")
      double.state.writeSystemEvent("$ops-noise", "Noise", { i }) // an ordinary type in a `$` stream
    }
    const noise = double.state.log.filter((e) => e.position > before && (e.type.startsWith("$") || e.stream.startsWith("$")))
    expect(noise.length).toBeGreaterThanOrEqual(18)

    // readAll's fromPosition is inclusive, subscribeAll's afterPosition exclusive
    const read = (await run(store.readAll({ fromPosition: before }))).filter((e) => e.position > before)
    expect(read.filter((e) => e.stream === s).map((e) => e.id)).toEqual(mine.map((e) => e.id))
    expect(read.every((e) => !e.type.startsWith("$") && !e.stream.startsWith("$"))).toBe(true)

    const live = await run(Stream.runCollect(Stream.take(store.subscribeAll({ afterPosition: before }), read.length)))
    expect(live.map((e) => e.id)).toEqual(read.map((e) => e.id))
  })

  it("keeps sparse positions usable as fromPosition and afterPosition, paging past system events", async () => {
    const s = stream("wallet")
    const [a, b, c] = [event("A"), event("B"), event("C")]
    await run(store.append(s, [a], "no_stream"))
    for (let i = 0; i < 40; i++) double.state.writeSystemEvent("$stats-127.0.0.1:2113", "$statsCollected", { i })
    await run(store.append(s, [b, c], 0n))
    const events = (await run(store.readStream(s))).events
    const positions = events.map((e) => e.position)
    expect(positions).toEqual(positions.map((p) => double.state.log.find((r) => r.position === p)!.position))
    expect(positions[1]! - positions[0]!).toBeGreaterThan(40n)
    expect(positions[2]! - positions[1]!).toBeGreaterThan(1n)

    expect((await run(store.readAll({ fromPosition: positions[0]!, maxCount: 3 }))).map((e) => e.id)).toEqual([a.id, b.id, c.id])
    expect((await run(store.readAll({ fromPosition: positions[1]!, maxCount: 1 }))).map((e) => e.id)).toEqual([b.id])
    const after = await run(Stream.runCollect(Stream.take(store.subscribeAll({ afterPosition: positions[0]! }), 2)))
    expect(after.map((e) => e.id)).toEqual([b.id, c.id])

    // Positions are opaque: like ESDB, the double refuses one that points inside a record.
    expect(await failure(store.readAll({ fromPosition: positions[0]! + 1n }))).toMatchObject({ _tag: "StoreUnavailable" })

    for (let i = 0; i < 70; i++) double.state.writeSystemEvent("$stats-127.0.0.1:2113", "$statsCollected", { i })
    expect(await run(store.headPosition)).toBe(positions[2])
  })

  it("delivers live events to a subscription that caught up", async () => {
    const head = await run(store.headPosition)
    const s = stream("live")
    const fiber = Effect.runFork(
      Stream.runCollect(
        Stream.take(
          Stream.filter(store.subscribeAll({ afterPosition: head }), (e) => e.stream === s),
          3,
        ),
      ),
    )
    await new Promise((resolve) => setTimeout(resolve, 100))
    for (const type of ["X", "Y", "Z"]) await run(store.append(s, [event(type)], "any"))
    const got = await Effect.runPromise(Fiber.join(fiber))
    expect(got.map((e) => e.type)).toEqual(["X", "Y", "Z"])
  })
})

describe.each([{ serverFeatures: true }, { serverFeatures: false }])(
  "esdb adapter across a store restart (serverFeatures: $serverFeatures)",
  ({ serverFeatures }) => {
    it("fails fast with StoreUnavailable while the store is down, writes nothing, and recovers on the same port", async () => {
      const state = createEsdbDoubleState()
      let double = await startEsdbDouble({ state, serverFeatures })
      const store = makeEsdbStore(`${double.connectionString}&defaultDeadline=2000`)
      try {
        const s = stream("restart")
        await run(store.append(s, [event("Before")], "no_stream"))
        const head = await run(store.headPosition)
        const subscription = Effect.runFork(Stream.runDrain(store.subscribeAll({ afterPosition: head })))
        await new Promise((resolve) => setTimeout(resolve, 100))
        await double.stop()

        const dropped = await Effect.runPromise(Fiber.await(subscription))
        expect(Exit.isFailure(dropped) && String(dropped.cause)).toContain("StoreUnavailable")
        const during = [event("During", 1), event("During", 2)]
        const started = Date.now()
        const error = await failure(store.append(s, during, 0n))
        expect(error).toMatchObject({ _tag: "StoreUnavailable" })
        expect((error as StoreUnavailable).reason).toMatch(/esdb append/)
        expect(Date.now() - started).toBeLessThan(5_000)
        expect(await failure(store.readStream(s))).toMatchObject({ _tag: "StoreUnavailable" })
        expect(await failure(store.headPosition)).toMatchObject({ _tag: "StoreUnavailable" })

        double = await startEsdbDouble({ port: double.port, state, serverFeatures })
        expect((await run(store.readStream(s))).events.map((e) => e.type)).toEqual(["Before"])
        expect(await run(store.append(s, during, 0n))).toMatchObject({ nextExpectedRevision: 2n })
        expect(await run(store.append(s, during, 0n))).toMatchObject({ nextExpectedRevision: 2n })
        expect((await run(store.readStream(s))).events.map((e) => e.type)).toEqual(["Before", "During", "During"])
      } finally {
        await store.close()
        await double.stop()
      }
    })
  },
)

describe("esdb adapter against a store that accepts connections but never answers", () => {
  it("gives up with StoreUnavailable after the deadline instead of hanging", async () => {
    const sockets = new Set<Socket>()
    const blackhole = createServer((socket) => void sockets.add(socket))
    await new Promise<void>((resolve) => blackhole.listen(0, "127.0.0.1", resolve))
    const { port } = blackhole.address() as AddressInfo
    const store = makeEsdbStore(`esdb://127.0.0.1:${port}?tls=false&defaultDeadline=1000`)
    try {
      const operations: ReadonlyArray<Effect.Effect<unknown, unknown>> = [
        store.append(stream("silent"), [event("Lost")], "any"),
        store.readStream(stream("silent")),
      ]
      for (const operation of operations) {
        const started = Date.now()
        expect(await failure(operation)).toMatchObject({ _tag: "StoreUnavailable" })
        expect(Date.now() - started).toBeLessThan(4_000)
      }
    } finally {
      await store.close()
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => blackhole.close(resolve))
    }
  })
})
