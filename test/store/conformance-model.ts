// Conformance property: random appends (fresh and repeated batches, every kind of expected revision) agree with a model.
import { Effect } from "effect"
import fc from "fast-check"
import { expect, it } from "vitest"
import { WrongExpectedVersion, type ExpectedRevision, type NewEvent, type StreamName } from "../../src/store/event-store.js"
import { idsOf, newEvent, ourLog, run, type Fixture } from "./conformance-harness.js"

type Outcome = { readonly ok: true; readonly next: bigint } | { readonly ok: false; readonly actual: bigint | "no_stream" }

/** EventStoreDB's rules, stated over plain id lists: what an append of `ids` to `stream` must answer. */
const expectedOutcome = (stream: ReadonlyArray<string>, ids: ReadonlyArray<string>, expected: ExpectedRevision): Outcome => {
  const last = stream.length - 1
  const reject: Outcome = { ok: false, actual: last < 0 ? "no_stream" : BigInt(last) }
  const write: Outcome = { ok: true, next: BigInt(last + ids.length) }
  if (expected === "stream_exists" && last < 0) return reject
  if (expected === "any" || expected === "stream_exists") {
    if (ids.length === 0 || !stream.includes(ids[0]!)) return write
    return ids.every((id) => stream.includes(id)) ? { ok: true, next: BigInt(stream.indexOf(ids[ids.length - 1]!)) } : reject
  }
  const after = expected === "no_stream" ? -1 : Number(expected)
  if (after === last) return write
  if (after > last || ids.length === 0) return reject
  const there = stream.slice(after + 1, after + 1 + ids.length)
  return there.length === ids.length && there.every((id, i) => id === ids[i]) ? { ok: true, next: BigInt(after + ids.length) } : reject
}

/** An expected revision as drawn: absolute, or relative to the stream's last revision when the command runs. */
type ExpectedSpec = ExpectedRevision | { readonly relative: number }

const expectedArb: fc.Arbitrary<ExpectedSpec> = fc.oneof(
  fc.constantFrom<ExpectedRevision>("any", "no_stream", "stream_exists"),
  fc.bigInt({ min: 0n, max: 6n }),
  fc.record({ relative: fc.integer({ min: -2, max: 1 }) }),
  fc.record({ relative: fc.constant(0) }),
)

const resolve = (spec: ExpectedSpec, last: number): ExpectedRevision =>
  typeof spec !== "object" ? spec : last + spec.relative < 0 ? "no_stream" : BigInt(last + spec.relative)

type Command =
  | { readonly kind: "fresh"; readonly stream: number; readonly count: number; readonly expected: ExpectedSpec }
  | {
      readonly kind: "repeat"
      readonly batch: number
      readonly shape: "same" | "prefix" | "extended"
      readonly expected: ExpectedSpec | "original"
    }

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("fresh" as const),
      stream: fc.nat({ max: 2 }),
      count: fc.nat({ max: 3 }),
      expected: expectedArb,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("repeat" as const),
      batch: fc.nat(),
      shape: fc.constantFrom("same" as const, "same" as const, "prefix" as const, "extended" as const),
      expected: fc.oneof(fc.constant("original" as const), expectedArb),
    }),
  },
)

interface Batch {
  readonly stream: StreamName
  readonly events: ReadonlyArray<NewEvent>
  readonly expected: ExpectedRevision
}

let runs = 0

export const modelProperty = (f: Fixture) =>
  it("random appends with random expected revisions agree with a model of EventStoreDB's rules", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(commandArb, { minLength: 10, maxLength: 40 }), async (commands) => {
        const streams = [0, 1, 2].map((k) => f.stream(`m${++runs}.${k}`))
        const model = new Map<StreamName, Array<string>>(streams.map((stream) => [stream, []]))
        const log: Array<string> = []
        // Repeats replay batches that were written: those are the ones EventStoreDB's idempotency is about.
        const history: Array<Batch> = []
        const acknowledged: Array<{ stream: StreamName; revision: bigint; position: bigint }> = []
        for (const command of commands) {
          let batch: Batch
          if (command.kind === "fresh") {
            const stream = streams[command.stream]!
            const events = Array.from({ length: command.count }, () => newEvent())
            batch = { stream, events, expected: resolve(command.expected, model.get(stream)!.length - 1) }
          } else {
            if (history.length === 0) continue
            const earlier = history[command.batch % history.length]!
            const events =
              command.shape === "prefix"
                ? earlier.events.slice(0, Math.max(1, earlier.events.length - 1))
                : command.shape === "extended"
                  ? [...earlier.events, newEvent()]
                  : earlier.events
            const expected =
              command.expected === "original" ? earlier.expected : resolve(command.expected, model.get(earlier.stream)!.length - 1)
            batch = { stream: earlier.stream, events, expected }
          }
          const stored = model.get(batch.stream)!
          const ids = idsOf(batch.events)
          const outcome = expectedOutcome(stored, ids, batch.expected)
          const writes = outcome.ok && outcome.next > BigInt(stored.length - 1)
          // EventStoreDB would store a second event with the same id here, after which "the" revision of an id is ambiguous.
          if (writes && ids.some((id) => stored.includes(id))) continue
          const answer = await run(
            Effect.match(f.store.append(batch.stream, batch.events, batch.expected), {
              onFailure: (error) => ({ ok: false as const, error }),
              onSuccess: (result) => ({ ok: true as const, result }),
            }),
          )
          if (outcome.ok) {
            expect(answer).toMatchObject({ ok: true, result: { nextExpectedRevision: outcome.next } })
            if (writes) {
              stored.push(...ids)
              log.push(...ids)
              history.push(batch)
            }
            if (answer.ok && ids.length > 0)
              acknowledged.push({ stream: batch.stream, revision: outcome.next, position: answer.result.position })
          } else {
            expect(answer.ok ? answer.result : answer.error).toBeInstanceOf(WrongExpectedVersion)
            expect(answer).toMatchObject({ ok: false, error: { actual: outcome.actual } })
          }
        }
        const reads = await Promise.all(streams.map((stream) => run(f.store.readStream(stream))))
        reads.forEach((read, k) => {
          const ids = model.get(streams[k]!)!
          expect(idsOf(read.events)).toEqual(ids)
          expect(read.revision).toBe(ids.length === 0 ? "no_stream" : BigInt(ids.length - 1))
        })
        const firsts = reads.flatMap((read) => read.events.slice(0, 1).map((event) => event.position))
        if (firsts.length === 0) return
        // biome-ignore lint/complexity/useMathMinMax: positions are bigints, which Math.min does not take
        const from = firsts.reduce((a, b) => (a < b ? a : b))
        const ours = (await ourLog(f, from)).filter((event) => streams.includes(event.stream))
        expect(idsOf(ours)).toEqual(log)
        for (const { stream, revision, position } of acknowledged) {
          expect(ours.find((event) => event.stream === stream && event.revision === revision)?.position).toBe(position)
        }
      }),
    )
  })
