// The graph codec: what goes in comes out — shared references, cycles, prototypes, frozen objects, every kind of
// value — and what cannot be saved or was damaged is refused with the reason.
import { describe, expect, it } from "vitest"
import { classRegistry, CorruptGraph, decodeGraph, encodeGraph, UnsupportedValue } from "../../../src/projections/storage/graph-codec.js"
import { History, Once } from "../../../src/projections/storage/history.js"

class Point {
  constructor(
    readonly x: number,
    public next: Point | undefined,
  ) {}
  get double(): number {
    return this.x * 2
  }
}
class Unlisted {
  readonly a = 1
}
const registry = classRegistry([Point, History, Once])

describe("graph codec", () => {
  it("keeps shared references, cycles, prototypes, Maps, Sets, frozen objects and every primitive", () => {
    const shared = Object.freeze({ name: "shared", list: Object.freeze([1, 2]) })
    const p = new Point(3, undefined)
    p.next = p
    const h = new History<string>()
    h.set(1n, "a")
    h.set(2n, "b")
    h.set(5n, "c")
    const root = {
      a: shared,
      b: shared,
      p,
      h,
      map: new Map<unknown, unknown>([
        ["k", shared],
        [7, new Set([1n, "x"])],
      ]),
      numbers: [0, -0, 1.5, NaN, Infinity, -Infinity, Number.MAX_SAFE_INTEGER, -1, 2 ** 32 - 1, 2 ** 32, -(2 ** 31)],
      bigints: [0n, -5n, 2n ** 80n, -(2n ** 70n)],
      misc: [true, false, null, undefined, "", "ünïcødé ✓"],
      bytes: Buffer.from("secret"),
      raw: new Uint8Array([1, 2, 3]),
      bare: Object.assign(Object.create(null) as object, { z: 1 }),
    }
    const back = decodeGraph(encodeGraph(root, registry), registry) as typeof root
    expect(back.a).toBe(back.b)
    expect(Object.isFrozen(back.a)).toBe(true)
    expect(Object.isFrozen(back.a.list)).toBe(true)
    expect(back.p).toBeInstanceOf(Point)
    expect(back.p.next).toBe(back.p)
    expect(back.p.double).toBe(6)
    expect(back.h).toBeInstanceOf(History)
    expect(back.h.at(4n)).toBe("b")
    expect(back.h.entries()).toEqual(h.entries())
    expect(back.map.get("k")).toBe(back.a)
    expect(back.map.get(7)).toEqual(new Set([1n, "x"]))
    expect(back.numbers).toEqual(root.numbers)
    expect(Object.is(back.numbers[1], -0)).toBe(true)
    expect(back.bigints).toEqual(root.bigints)
    expect(back.misc).toEqual(root.misc)
    expect(Buffer.isBuffer(back.bytes) && back.bytes.toString()).toBe("secret")
    expect(back.raw).toEqual(new Uint8Array([1, 2, 3]))
    expect(Buffer.isBuffer(back.raw)).toBe(false)
    expect(Object.getPrototypeOf(back.bare)).toBeNull()
    expect(back.bare).toEqual(root.bare)
  })

  it("gives back every bigint as it was, when many records name the same ones (positions) and others fall in the same slots", () => {
    const positions = [-1n, 0n, 1n, -1n, 7n, 7n, 2n ** 53n - 1n, -(2n ** 53n) + 1n, 2n ** 53n, 1n + 2n ** 20n, 1n, 1n + 2n ** 20n]
    const root = { records: positions.map((p) => ({ position: p, again: p, text: String(p) })) }
    const back = decodeGraph(encodeGraph(root, registry), registry) as typeof root
    expect(back.records.map((r) => [r.position, r.again, r.text])).toEqual(positions.map((p) => [p, p, String(p)]))
  })

  it("gives back bigints past the safe integers as they were: in two words up to 64 bits signed, as text beyond", () => {
    const amounts = [
      2n ** 53n,
      -(2n ** 53n),
      10n ** 18n + 7n,
      -(10n ** 18n) - 7n,
      2n ** 63n - 1n,
      -(2n ** 63n),
      2n ** 63n,
      -(2n ** 63n) - 1n,
      2n ** 64n,
      2n ** 32n,
      2n ** 32n - 1n + 2n ** 60n,
    ]
    const root = { amounts, again: amounts.map((a) => ({ a })) }
    const encoded = encodeGraph(root, registry)
    const back = decodeGraph(encoded, registry) as typeof root
    expect(back.amounts).toEqual(amounts)
    expect(back.again.map((r) => r.a)).toEqual(amounts)
    // Only the ones beyond 64 bits are text: the others' digits are nowhere in it.
    expect(encoded.text).toContain(String(2n ** 63n))
    expect(encoded.text).not.toContain(String(10n ** 18n + 7n).slice(0, 15))
    expect(Buffer.from(encodeGraph(back, registry).values.buffer)).toEqual(Buffer.from(encoded.values.buffer))
    // The low half without its high half is a damaged encoding.
    const lone = encodeGraph({ a: 10n ** 18n }, registry)
    expect(() =>
      decodeGraph(
        { ...lone, tags: lone.tags.subarray(0, lone.tags.length - 1), values: lone.values.subarray(0, lone.values.length - 1) },
        registry,
      ),
    ).toThrow(/without its high word/)
  })

  it("keeps typed arrays of numbers (the models' columns) as whole buffers, each its own copy, and refuses other kinds", () => {
    const floats = new Float64Array([1.5, NaN, -0, 2 ** 60])
    const backing = new Int32Array([9, -1, 2 ** 31 - 1, 4])
    const root = {
      floats,
      ints: backing.subarray(1, 3),
      again: backing.subarray(1, 3),
      words: new Uint32Array([2 ** 32 - 1]),
      chars: new Uint16Array([104, 105]),
      bytes: new Uint8Array([255, 0, 7]),
      none: new Float64Array(0),
    }
    const encoded = encodeGraph(root, registry)
    const back = decodeGraph(encoded, registry) as typeof root
    expect(back.floats).toBeInstanceOf(Float64Array)
    expect(Array.from(back.floats)).toEqual(Array.from(floats))
    expect(Object.is(back.floats[2], -0)).toBe(true)
    expect(back.ints).toEqual(new Int32Array([-1, 2 ** 31 - 1]))
    expect(back.again).toEqual(back.ints)
    back.ints[0] = 5
    expect(back.again[0]).toBe(-1)
    expect(back.words).toEqual(new Uint32Array([2 ** 32 - 1]))
    expect(back.chars).toEqual(new Uint16Array([104, 105]))
    expect(back.bytes).toEqual(new Uint8Array([255, 0, 7]))
    expect(back.none).toEqual(new Float64Array(0))
    expect(encodeGraph(back, registry).blobs.byteLength).toBe(encoded.blobs.byteLength)
    // Blobs read from a file are a Buffer at some offset of a larger one: each column is still its own copy of its bytes.
    const fromFile = decodeGraph(
      { ...encoded, blobs: Buffer.concat([Buffer.from("header"), encoded.blobs]).subarray(6) },
      registry,
    ) as typeof root
    expect(Array.from(fromFile.floats)).toEqual(Array.from(floats))
    expect(fromFile.words).toEqual(new Uint32Array([2 ** 32 - 1]))
    expect(() => encodeGraph({ big: new BigUint64Array(1) }, registry)).toThrow(/object big: a BigUint64Array cannot be saved/)
    expect(() => decodeGraph({ ...encoded, blobs: encoded.blobs.subarray(0, 8) }, registry)).toThrow(CorruptGraph)
  })

  it("refuses a function, a symbol key and an instance of a class not registered, naming it", () => {
    expect(() => encodeGraph({ f: () => 1 }, registry)).toThrow(UnsupportedValue)
    expect(() => encodeGraph({ f: () => 1 }, registry)).toThrow(/object f: a function cannot be saved/)
    expect(() => encodeGraph({ [Symbol("s")]: 1 }, registry)).toThrow(/symbol keys/)
    expect(() => encodeGraph({ u: new Unlisted() }, registry)).toThrow(/an instance of Unlisted: its class is not registered/)
    expect(() => encodeGraph({ d: new Date(0) }, registry)).toThrow(/an instance of Date/)
  })

  it("refuses a damaged encoding: values cut short, values left over, an unknown class", () => {
    const encoded = encodeGraph({ p: new Point(1, undefined), list: [1, 2, 3] }, registry)
    expect(() =>
      decodeGraph(
        {
          ...encoded,
          tags: encoded.tags.subarray(0, encoded.tags.length - 1),
          values: encoded.values.subarray(0, encoded.values.length - 1),
        },
        registry,
      ),
    ).toThrow(CorruptGraph)
    const longer = new Uint8Array(encoded.tags.length + 1)
    longer.set(encoded.tags)
    const more = new Uint32Array(encoded.values.length + 1)
    more.set(encoded.values)
    expect(() => decodeGraph({ ...encoded, tags: longer, values: more }, registry)).toThrow(/left over/)
    expect(() => decodeGraph(encoded, classRegistry([History]))).toThrow(/a class this code does not have: Point/)
  })
})
