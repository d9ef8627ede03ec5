// What the SQLite store's tail relies on: it hands out the objects an append was given (no SELECT, no JSON.parse),
// so each of them must be equal to what a restart reads back from the file — the event's JSON round trip. Checked
// for events of every type the simulator writes, with metadata of every shape, over several streams. The read
// models' pull (`forFolding`) reads the same events, their data parsed on first read.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Arbitrary, Effect } from "effect"
import fc from "fast-check"
import { afterAll, describe, expect, it } from "vitest"
import { eventDataSchemas } from "../../src/event-log/event-schemas.js"
import { knownEventTypes } from "../../src/events/event-types.js"
import type { EventMetadata, JsonValue, NewEvent, RecordedEvent } from "../../src/store/event-store.js"
import { makeSqliteStore } from "../../src/store/sqlite.js"

const types = Object.keys(eventDataSchemas) as Array<keyof typeof eventDataSchemas>
const SEED = 20_261_127
const PER_TYPE = 6

/**
 * -0 is the one value JSON does not carry (it writes 0): the tail would hand a fold -0 where a restart gives 0. No fold
 * or answer tells them apart (answers are JSON), so the samples hold 0 instead; everything else must come back as is.
 * Objects come out plain (Object.prototype), as the commands write them.
 */
const withoutNegativeZero = (v: JsonValue): JsonValue =>
  Object.is(v, -0)
    ? 0
    : Array.isArray(v)
      ? v.map(withoutNegativeZero)
      : typeof v === "object" && v !== null
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withoutNegativeZero(x)]))
        : v

const samples = async (type: keyof typeof eventDataSchemas): Promise<ReadonlyArray<JsonValue>> => {
  const data = (await Effect.runPromise(
    Arbitrary.sampleEffect(Arbitrary.schema(eventDataSchemas[type]), { count: PER_TYPE, seed: SEED }),
  )) as ReadonlyArray<JsonValue>
  return data.map(withoutNegativeZero)
}

/** Metadata as commands write it: the time and schema version, and any of the request's ids and extra fields. */
const metadata: fc.Arbitrary<EventMetadata> = fc
  .record(
    {
      at: fc.integer({ min: 0, max: 4_102_444_800_000 }),
      schemaVersion: fc.integer({ min: 1, max: 3 }),
      seq: fc.nat(),
      requestId: fc.string(),
      causationId: fc.uuid(),
      correlationId: fc.uuid(),
      node: fc.jsonValue(),
    },
    { requiredKeys: ["at", "schemaVersion"] },
  )
  // Plain objects, as commands write them (fast-check's records have no prototype).
  .map((m) => withoutNegativeZero(m as JsonValue) as unknown as EventMetadata)

/** JSON with the bigint fields (position, revision) as decimal strings, in the objects' own key order. */
const text = (events: ReadonlyArray<RecordedEvent>) => JSON.stringify(events, (_, v: unknown) => (typeof v === "bigint" ? `${v}n` : v))

describe("sqlite tail", () => {
  const dir = mkdtempSync(join(tmpdir(), "custody-sim-sqlite-tail-"))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("covers every event type the simulator writes", () => {
    expect(new Set(types)).toEqual(knownEventTypes)
  })

  it("hands out appended events equal to what a restart reads back from the file, for every event type", { timeout: 60_000 }, async () => {
    const file = join(dir, "events.db")
    const metas = fc.sample(metadata, { numRuns: types.length * PER_TYPE, seed: SEED })
    const appended: Array<NewEvent> = []
    for (const type of types)
      for (const data of await samples(type))
        appended.push({
          id: fc.sample(fc.uuid(), { numRuns: 1, seed: SEED + appended.length })[0]!,
          type,
          data,
          metadata: metas[appended.length]!,
        })
    const writer = makeSqliteStore({ file })
    let first: bigint | undefined
    // Single events and groups, into a few streams, so that revisions and positions both vary.
    for (let i = 0, k = 0; i < appended.length; k++) {
      const group = appended.slice(i, i + 1 + (k % 3))
      i += group.length
      const result = await Effect.runPromise(writer.append(`stream-${k % 5}`, group, "any"))
      first ??= result.position - BigInt(group.length - 1)
    }
    // Served from the tail: the appended objects themselves.
    const tail = await Effect.runPromise(writer.readAll({ fromPosition: first! }))
    expect(tail.length).toBe(appended.length)
    for (let i = 0; i < tail.length; i++) expect(tail[i]!.data).toBe(appended[i]!.data)
    writer.close()

    const reader = makeSqliteStore({ file })
    try {
      const read = await Effect.runPromise(reader.readAll())
      expect(read.map((e) => e.type)).toEqual(appended.map((e) => e.type))
      expect(read).toStrictEqual(tail)
      expect(text(read)).toBe(text(tail))
      for (const e of tail) {
        expect(JSON.parse(JSON.stringify(e.data))).toStrictEqual(e.data)
        expect(JSON.parse(JSON.stringify(e.metadata))).toStrictEqual(e.metadata)
      }
      // What the read models' pull reads: the same events, their data parsed when first read, once.
      const folded = await Effect.runPromise(reader.readAll({ forFolding: true }))
      expect(
        folded.map(({ id, type, data, metadata, stream, revision, position }) => ({
          id,
          type,
          data,
          metadata,
          stream,
          revision,
          position,
        })),
      ).toStrictEqual(read)
      for (const e of folded) expect(e.data).toBe(e.data)
    } finally {
      reader.close()
    }
  })
})
