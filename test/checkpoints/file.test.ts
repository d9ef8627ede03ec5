// A checkpoint file read back: each column comes back in a buffer of its own with room to grow, the graph decodes to
// what was written and encodes to the same bytes, and a change to any byte a section's CRC covers — in a column or in
// the padding between two columns — is refused.
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { CheckpointRefused, readCheckpointFile, writeCheckpointFile, type CheckpointHeader } from "../../src/checkpoints/file.js"
import { IntColumn, NumberColumn } from "../../src/projections/storage/columns.js"
import { classRegistry, decodeGraph, encodeGraph, type EncodedGraph } from "../../src/projections/storage/graph-codec.js"
import { dataDir } from "./support.js"

const registry = classRegistry([IntColumn, NumberColumn])

/** Columns of odd lengths and every element type: the blobs section has padding between them. */
const graph = () => {
  const ints = new IntColumn()
  const numbers = new NumberColumn()
  for (let i = 0; i < 1_001; i++) ints.push(i * 7 - 3)
  for (let i = 0; i < 333; i++) numbers.push(i / 3)
  ints.compact()
  numbers.compact()
  return {
    ints,
    numbers,
    bytes: new Uint8Array([1, 2, 3]),
    halves: new Uint16Array([9, 8, 7, 6, 5]),
    words: new Uint32Array([2 ** 32 - 1]),
    names: ["a", "b", "ünï"],
  }
}

const header = { code: "test", position: "7", event: "e", count: 7 }

const write = (): { file: string; encoded: EncodedGraph } => {
  const file = join(dataDir(), "read-models.7.checkpoint")
  const encoded = encodeGraph(graph(), registry)
  writeCheckpointFile(file, header, encoded)
  return { file, encoded }
}

/** Where each section starts in the file, as the reader finds them. */
const sectionsOf = (file: string): Array<{ name: string; start: number; bytes: number }> => {
  const bytes = readFileSync(file)
  let at = bytes.indexOf(10, bytes.indexOf(10) + 1) + 1
  const h = JSON.parse(bytes.toString("utf8", bytes.indexOf(10) + 1, at - 1)) as CheckpointHeader
  return h.sections.map((s) => {
    at += (8 - (at % 8)) % 8
    const out = { name: s.name, start: at, bytes: s.bytes }
    at += s.bytes
    return out
  })
}

describe("a checkpoint file", () => {
  it("decodes to what was written, each column in a buffer of its own with room to grow, and encodes to the same bytes", () => {
    const { file, encoded } = write()
    const read = readCheckpointFile(file)
    expect(read.header).toMatchObject(header)
    const back = decodeGraph(read.encoded, registry) as ReturnType<typeof graph>
    const original = graph()
    expect(Array.from(back.ints.values)).toEqual(Array.from(original.ints.values))
    expect(Array.from(back.numbers.values)).toEqual(Array.from(original.numbers.values))
    expect(back.bytes).toEqual(original.bytes)
    expect(back.halves).toEqual(original.halves)
    expect(back.words).toEqual(original.words)
    expect(back.names).toEqual(original.names)
    const buffers = [back.ints.values, back.numbers.values, back.bytes, back.halves, back.words].map((a) => a.buffer)
    expect(new Set(buffers).size).toBe(buffers.length)
    expect(back.ints.values.buffer.byteLength).toBeGreaterThanOrEqual(back.ints.values.byteLength * 1.125)
    const again = encodeGraph(back, registry)
    expect(Buffer.from(again.blobs)).toEqual(Buffer.from(encoded.blobs))
    expect(again.table).toBe(encoded.table)
    // A column grows into its room: the rows before are kept, the buffer is the same.
    const buffer = back.ints.values.buffer
    back.ints.push(42)
    expect(back.ints.values.buffer).toBe(buffer)
    expect(back.ints.values[1_001]).toBe(42)
    expect(back.ints.values[1_000]).toBe(original.ints.values[1_000])
  })

  it("with any byte of a section changed — in a column, or in the padding between columns — is refused", () => {
    const { file } = write()
    const original = readFileSync(file)
    const sections = sectionsOf(file)
    const blobs = sections.find((s) => s.name === "blobs")!
    const table = JSON.parse(readCheckpointFile(file).encoded.table) as { typed: Array<[number, number, number]> }
    const [first, second] = table.typed
    const widths = [8, 4, 4, 2, 1]
    const padding = blobs.start + first![1] + first![2] * widths[first![0]]!
    expect(second![1] + blobs.start).toBeGreaterThan(padding)
    const places = [
      ...sections.filter((s) => s.bytes > 0).map((s) => ({ name: s.name, at: s.start + Math.floor(s.bytes / 2) })),
      { name: "blobs", at: padding },
      { name: "blobs", at: blobs.start + blobs.bytes - 1 },
    ]
    for (const { name, at } of places) {
      const damaged = Buffer.from(original)
      damaged[at] = damaged[at]! ^ 0x01
      writeFileSync(file, damaged)
      expect(() => readCheckpointFile(file), `a byte of ${name} at ${at}`).toThrow(new CheckpointRefused(`the ${name} section is damaged`))
    }
  })

  it("whose table lists columns that do not lie one after another in the blobs is refused", () => {
    const file = join(dataDir(), "read-models.7.checkpoint")
    const encoded = encodeGraph(graph(), registry)
    const table = JSON.parse(encoded.table) as { typed: Array<[number, number, number]> }
    table.typed.reverse()
    writeCheckpointFile(file, header, { ...encoded, table: JSON.stringify(table) })
    expect(() => readCheckpointFile(file)).toThrow(/the blobs section does not hold the table's arrays/)
  })
})
