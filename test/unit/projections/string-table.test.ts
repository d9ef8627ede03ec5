// The read models' string tables: a string reads back the same, and is found by the same reference, whether it was
// added since the last checkpoint (kept as given), packed into bytes for one, or decoded from one.
import { describe, expect, it } from "vitest"
import { StringTable } from "../../../src/projections/storage/columns.js"
import { cloneGraph } from "../../../src/projections/storage/clone-graph.js"
import { classRegistry, decodeGraph, encodeGraph } from "../../../src/projections/storage/graph-codec.js"

const registry = classRegistry([StringTable])
const roundTrip = (t: StringTable): StringTable => decodeGraph(encodeGraph(t, registry), registry) as StringTable

// ASCII, Latin-1, beyond U+00FF (kept whole), empty, and longer than one decoding chunk.
const samples = ["tx-1", "0xabc", "", "café", "frøm ✓", "x".repeat(10_000), "𝔘nicode", "tx-2"]

describe("a string table", () => {
  it("interns each distinct string once and reads it back, before and after packing, and decoded", () => {
    const t = new StringTable()
    const refs = samples.map((s) => t.intern(s))
    expect(new Set(refs).size).toBe(samples.length)
    expect(samples.map((s) => t.intern(s))).toEqual(refs)
    t.pack()
    expect(t.added).toEqual([])
    const more = t.intern("after-pack")
    expect(more).toBe(samples.length)
    for (const table of [t, roundTrip(t)]) {
      expect(refs.map((k) => table.at(k))).toEqual(samples)
      expect(samples.map((s) => table.find(s))).toEqual(refs)
      expect(samples.map((s) => table.intern(s))).toEqual(refs)
      expect(table.find("absent")).toBe(-1)
    }
    // Reads of the packed prefix are cached by reference: a second read gives the same string.
    expect(t.at(refs[0]!)).toBe(t.at(refs[0]!))
    const decoded = roundTrip(t)
    expect(decoded.at(more)).toBe("after-pack")
    expect(decoded.find("after-pack")).toBe(more)
    expect(decoded.intern("new")).toBe(more + 1)
    expect(decoded.at(more + 1)).toBe("new")
  })

  it("appends strings that are read back by reference only, and packs them", () => {
    const t = new StringTable(false)
    const refs = samples.map((s) => t.append(s))
    expect(refs).toEqual(samples.map((_, i) => i))
    t.pack()
    expect(t.hashes.length).toBe(0)
    expect(t.append("later")).toBe(samples.length)
    for (const table of [t, roundTrip(t)]) expect([...refs, samples.length].map((k) => table.at(k))).toEqual([...samples, "later"])
  })

  it("encodes the same bytes decoded and again (a checkpoint of a restored model is the same file)", () => {
    const t = new StringTable()
    for (let i = 0; i < 5_000; i++) t.intern(`id-${i}`)
    t.compact()
    const once = encodeGraph(t, registry)
    const decoded = decodeGraph(once, registry) as StringTable
    decoded.compact()
    const twice = encodeGraph(decoded, registry)
    expect(Buffer.compare(Buffer.from(twice.blobs), Buffer.from(once.blobs))).toBe(0)
    expect([twice.table, twice.text]).toEqual([once.table, once.text])
    expect(decoded.find("id-4321")).toBe(4321)
  })

  it("finds the same references once it holds more added strings than its Map takes (its own index), copied, packed and decoded", () => {
    const t = new StringTable()
    const n = 40_000
    // Ids of one length with a common prefix, as transaction ids are, and a few beyond Latin-1.
    const ids = Array.from({ length: n }, (_, i) => (i % 997 === 0 ? `✓${i}` : `0x${i.toString(16).padStart(64, "0")}`))
    const refs = ids.map((s) => t.intern(s))
    expect(refs).toEqual(ids.map((_, i) => i))
    expect(ids.map((s) => t.intern(s))).toEqual(refs)
    expect(ids.map((s) => t.find(`${s}`))).toEqual(refs)
    expect(t.find("0xabsent")).toBe(-1)
    const copy = cloneGraph(t)
    expect(copy.find(ids[n - 1]!)).toBe(n - 1)
    expect(copy.intern("new in the copy")).toBe(n)
    expect(t.find("new in the copy")).toBe(-1)
    const decoded = roundTrip(t)
    expect(ids.map((s) => decoded.find(s))).toEqual(refs)
    t.pack()
    expect(ids.map((s) => t.find(s))).toEqual(refs)
    expect(t.intern(ids[123]!)).toBe(123)
    expect(t.intern("after the pack")).toBe(n)
    expect(roundTrip(t).find("after the pack")).toBe(n)
  })
  it("finds strings alike in their last characters apart, past its Map (its index hashes a sample of each)", () => {
    const t = new StringTable()
    const n = 17_000
    // Every id ends the same and is one length: they fall on few hashes, and are still told apart by their text.
    const ids = Array.from({ length: n }, (_, i) => `${i.toString(36).padStart(4, "0")}-${"same tail".repeat(4)}`)
    expect(ids.map((s) => t.intern(s))).toEqual(ids.map((_, i) => i))
    expect(ids.map((s) => t.find(s))).toEqual(ids.map((_, i) => i))
    expect(t.find(`absent-${"same tail".repeat(4)}`)).toBe(-1)
  })

  it("gives the references intern and find give when asked through a call site's memo of its last string", () => {
    const t = new StringTable()
    const plain = new StringTable()
    const asked = ["eth", "eth", "btc", "eth", "", "", "café", "eth"]
    // Slot 0 sees every string in turn, slot 1 only every other one; both agree with a table asked without memos.
    expect(asked.map((s, i) => t.internAt(i % 2, s))).toEqual(asked.map((s) => plain.intern(s)))
    expect(asked.map((s) => t.findAt(2, s))).toEqual(asked.map((s) => plain.find(s)))
    // A string not found is not remembered: once interned, the same slot finds it.
    expect(t.findAt(3, "later")).toBe(-1)
    const later = t.intern("later")
    expect(t.findAt(3, "later")).toBe(later)
    // Neither saved nor copied: a copy answers the same without the memo.
    expect(cloneGraph(t).internAt(0, "btc")).toBe(plain.find("btc"))
    expect(roundTrip(t).findAt(0, "later")).toBe(later)
  })
})
