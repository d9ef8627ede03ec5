// A whole object graph (the read models) to flat columns and back: shared references stay shared, cycles stay
// cycles, instances of the registered classes get their prototype back, frozen objects come back frozen.
// Columns rather than v8.serialize of the graph itself: on a million-event world v8.deserialize took longer than
// half a rebuild, while rebuilding objects from typed arrays and slices of one text is a loop over numbers.
//
// Every object gets a node id in the order it is first met; a node's kind says what it is (an array, a Map, a
// Set, or an object of a shape: prototype, frozen or not, own keys), and its values follow in `values` with a
// one-byte tag each: the value is the number itself (a count, an id, a position: any integer that fits 32 bits), an
// index of a string (a slice of `text`), a node id, or an index into `floats` for any other number; a bigint of 64
// bits takes two slots, its two halves. Bytes are values (base64 strings): two references to one buffer come back as
//
// This module holds the format both sides read: the kinds, the tags, the table. The encoder is graph-encode.ts, the
// decoder graph-decode.ts; graph-codec.ts names the three together.

/** Classes whose instances may appear in the graph, by name (the name is what an encoded graph records). */
export type ClassRegistry = ReadonlyMap<string, { readonly prototype: object }>

export const classRegistry = (classes: ReadonlyArray<{ readonly name: string; readonly prototype: object }>): ClassRegistry => {
  const out = new Map<string, { readonly prototype: object }>()
  for (const c of classes) {
    if (out.has(c.name) && out.get(c.name) !== c) throw new Error(`two classes named ${c.name} in one registry`)
    out.set(c.name, c)
  }
  return out
}

export interface EncodedGraph {
  /** Class names (index 0: plain objects, 1: objects with no prototype) and shapes, as JSON text. */
  readonly table: string
  /** Every string, one after the other… */
  readonly text: string
  /** …and where each ends in `text` (UTF-16 units): a string is a slice, not a JSON string to parse. */
  readonly ends: Uint32Array
  /** Per node: -1 array, -2 Map, -3 Set, -4 frozen array, otherwise a shape index. */
  readonly kinds: Int32Array
  readonly tags: Uint8Array
  /** One per tag: 32 bits hold nearly every value, so a file is two thirds of what float64s would make it. */
  readonly values: Uint32Array
  /** The numbers that are not integers of 32 bits (and the bigints that are safe integers), in the order met. */
  readonly floats: Float64Array
  /**
   * The bytes of every typed array of numbers (the models' columns), each starting at a multiple of 8: a column is
   * saved and loaded as one copy of its buffer, not value by value.
   */
  readonly blobs: Uint8Array
}

/**
 * An encoded graph whose typed arrays were read each into a buffer of its own (a checkpoint file is read that way,
 * checkpoints/file.ts) instead of into one `blobs`: decoding makes each array a view over its buffer, with no copy.
 */
export interface LoadedGraph extends Omit<EncodedGraph, "blobs"> {
  /** Per typed array of the table, in its order: a buffer of `typedColumnsOf`'s `bufferBytes`, its bytes from 0. */
  readonly columns: ReadonlyArray<Uint8Array>
}

export class UnsupportedValue extends Error {}

export class CorruptGraph extends Error {}

export const ARRAY = -1
export const MAP = -2
export const SET = -3
export const FROZEN_ARRAY = -4

/** An integer 0 ≤ n < 2^32, in `values` itself. */
export const T_NUMBER = 0
export const T_STRING = 1
export const T_REF = 2
export const T_UNDEFINED = 3
export const T_NULL = 4
export const T_TRUE = 5
export const T_FALSE = 6
/** A bigint that is a safe integer: an index into `floats` of the number. */
export const T_SMALL_BIGINT = 7
/** Any other bigint (beyond 64 bits): an index into `strings` of its decimal text. */
export const T_BIGINT = 8
/** A Buffer as a value, not a node: an index into `strings` of its base64 (T_BYTES: a Uint8Array, in older graphs). */
export const T_BUFFER = 9
export const T_BYTES = 10
/** Any other number: an index into `floats`. */
export const T_FLOAT = 11
/** A typed array of numbers, as a value: an index into the table's `typed` (its type, offset in `blobs`, length). */
export const T_TYPED = 12
/**
 * A bigint of 64 bits signed that is not a safe integer (an amount in base units): its low 32 bits here, its high
 * 32 bits in the next slot, tagged T_HIGH_WORD. Not its decimal text: a million-event log's models hold 300,000 of
 * them, all different, and parsing their text was most of the text and a tenth of a restart.
 */
export const T_INT64 = 13
export const T_HIGH_WORD = 14

export const SAFE_MIN = BigInt(Number.MIN_SAFE_INTEGER)
export const SAFE_MAX = BigInt(Number.MAX_SAFE_INTEGER)
export const INT64_MIN = -(2n ** 63n)
export const INT64_MAX = 2n ** 63n - 1n

/** The typed arrays a graph may hold, by the code the table records. */
export const typedArrays = [Float64Array, Int32Array, Uint32Array, Uint16Array, Uint8Array] as const
export const typedCode = (v: ArrayBufferView): number => typedArrays.findIndex((t) => v instanceof t)

export interface Table {
  readonly classes: Array<string>
  /** [class index, frozen 0|1, keys…] */
  readonly shapes: Array<Array<string | number>>
  /** [type code, byte offset in `blobs`, length] of each typed array. */
  readonly typed: Array<[number, number, number]>
}

/** Where a typed array's bytes lie in `blobs`, and how big a buffer its decoded array gets. */
export interface TypedColumn {
  readonly offset: number
  readonly bytes: number
  /**
   * Its bytes and an eighth more behind them: a column that goes on growing after a restart (columns.ts) grows into
   * that room instead of copying itself whole at its first row.
   */
  readonly bufferBytes: number
}

export const typedColumn = (
  t: unknown,
  k: number,
): TypedColumn & { readonly make: (typeof typedArrays)[number]; readonly length: number } => {
  if (!Array.isArray(t)) throw new CorruptGraph(`no typed array ${k}`)
  const [code, offset, length] = t as [number, number, number]
  const make = typedArrays[code]
  if (make === undefined || !Number.isInteger(offset) || !Number.isInteger(length) || offset < 0 || length < 0)
    throw new CorruptGraph(`typed array ${k} is damaged`)
  const width = make.BYTES_PER_ELEMENT
  return { make, length, offset, bytes: length * width, bufferBytes: (length + Math.ceil(length / 8) + 64) * width }
}

export const typedOfTable = (table: Table): ReadonlyArray<unknown> => (Array.isArray(table.typed) ? table.typed : [])

/** The typed arrays an encoded graph's table lists, in its order (to read each from a file into its own buffer). */
export const typedColumnsOf = (table: string): ReadonlyArray<TypedColumn> => {
  let parsed: Table
  try {
    parsed = JSON.parse(table) as Table
  } catch {
    throw new CorruptGraph("the table is not JSON")
  }
  return typedOfTable(parsed).map(typedColumn)
}
