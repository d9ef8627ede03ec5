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
// two equal buffers.

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

const ARRAY = -1
const MAP = -2
const SET = -3
const FROZEN_ARRAY = -4

/** An integer 0 ≤ n < 2^32, in `values` itself. */
const T_NUMBER = 0
const T_STRING = 1
const T_REF = 2
const T_UNDEFINED = 3
const T_NULL = 4
const T_TRUE = 5
const T_FALSE = 6
/** A bigint that is a safe integer: an index into `floats` of the number. */
const T_SMALL_BIGINT = 7
/** Any other bigint (beyond 64 bits): an index into `strings` of its decimal text. */
const T_BIGINT = 8
/** A Buffer as a value, not a node: an index into `strings` of its base64 (T_BYTES: a Uint8Array, in older graphs). */
const T_BUFFER = 9
const T_BYTES = 10
/** Any other number: an index into `floats`. */
const T_FLOAT = 11
/** A typed array of numbers, as a value: an index into the table's `typed` (its type, offset in `blobs`, length). */
const T_TYPED = 12
/**
 * A bigint of 64 bits signed that is not a safe integer (an amount in base units): its low 32 bits here, its high
 * 32 bits in the next slot, tagged T_HIGH_WORD. Not its decimal text: a million-event log's models hold 300,000 of
 * them, all different, and parsing their text was most of the text and a tenth of a restart.
 */
const T_INT64 = 13
const T_HIGH_WORD = 14

/** A bigint's 64 bits as two 32-bit words (the same memory). */
const int64 = new BigInt64Array(1)
const int64Words = new Uint32Array(int64.buffer)
const SAFE_MIN = BigInt(Number.MIN_SAFE_INTEGER)
const SAFE_MAX = BigInt(Number.MAX_SAFE_INTEGER)
const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n

/** The typed arrays a graph may hold, by the code the table records. */
const typedArrays = [Float64Array, Int32Array, Uint32Array, Uint16Array, Uint8Array] as const
const typedCode = (v: ArrayBufferView): number => typedArrays.findIndex((t) => v instanceof t)

interface Table {
  readonly classes: Array<string>
  /** [class index, frozen 0|1, keys…] */
  readonly shapes: Array<Array<string | number>>
  /** [type code, byte offset in `blobs`, length] of each typed array. */
  readonly typed: Array<[number, number, number]>
}

class Growing<A extends Uint8Array | Float64Array | Int32Array | Uint32Array> {
  length = 0
  constructor(
    public array: A,
    private readonly make: (n: number) => A,
  ) {}
  push(x: number): void {
    if (this.length === this.array.length) {
      const bigger = this.make(this.array.length * 2)
      bigger.set(this.array as never)
      this.array = bigger
    }
    this.array[this.length++] = x
  }
  /** Appends many at once (Uint8Array only). */
  append(bytes: Uint8Array): void {
    let n = this.array.length
    while (n < this.length + bytes.length) n *= 2
    if (n !== this.array.length) {
      const bigger = this.make(n)
      bigger.set(this.array as never)
      this.array = bigger
    }
    ;(this.array as Uint8Array).set(bytes, this.length)
    this.length += bytes.length
  }
  done(): A {
    return this.array.subarray(0, this.length) as A
  }
}

export const encodeGraph = (root: object, registry: ClassRegistry): EncodedGraph => {
  const classIndex = new Map<object | null, number>([
    [Object.prototype, 0],
    [null, 1],
  ])
  const table: Table = { classes: ["Object", "null"], shapes: [], typed: [] }
  const blobs = new Growing(new Uint8Array(4096), (n) => new Uint8Array(n))
  const strings: Array<string> = []
  const ends = new Growing(new Uint32Array(1024), (n) => new Uint32Array(n))
  let textLength = 0
  for (const [name, c] of registry) {
    classIndex.set(c.prototype, table.classes.length)
    table.classes.push(name)
  }
  const shapeIndex = new Map<string, number>()
  const stringIndex = new Map<string, number>()
  const ids = new Map<object, number>()
  const queue: Array<object> = []
  const kinds = new Growing(new Int32Array(1024), (n) => new Int32Array(n))
  const tags = new Growing(new Uint8Array(4096), (n) => new Uint8Array(n))
  const values = new Growing(new Uint32Array(4096), (n) => new Uint32Array(n))
  const floats = new Growing(new Float64Array(256), (n) => new Float64Array(n))

  const str = (s: string): number => {
    let i = stringIndex.get(s)
    if (i === undefined) {
      i = strings.length
      strings.push(s)
      textLength += s.length
      ends.push(textLength)
      stringIndex.set(s, i)
    }
    return i
  }
  const put = (tag: number, value: number) => {
    tags.push(tag)
    values.push(value)
  }
  const float = (tag: number, x: number) => {
    put(tag, floats.length)
    floats.push(x)
  }
  // Where the value being written sits, for the error that names it (kept as plain variables: no closure per value).
  let owner = "root"
  let key: unknown = ""
  const value = (v: unknown): void => {
    switch (typeof v) {
      case "number":
        return Number.isInteger(v) && v >= 0 && v <= 0xffffffff && !Object.is(v, -0) ? put(T_NUMBER, v) : float(T_FLOAT, v)
      case "string":
        return put(T_STRING, str(v))
      case "boolean":
        return put(v ? T_TRUE : T_FALSE, 0)
      case "undefined":
        return put(T_UNDEFINED, 0)
      case "bigint":
        if (v >= SAFE_MIN && v <= SAFE_MAX) return float(T_SMALL_BIGINT, Number(v))
        if (v < INT64_MIN || v > INT64_MAX) return put(T_BIGINT, str(v.toString()))
        int64[0] = v
        put(T_INT64, int64Words[0]!)
        return put(T_HIGH_WORD, int64Words[1]!)
      case "object": {
        if (v === null) return put(T_NULL, 0)
        if (ArrayBuffer.isView(v) && !Buffer.isBuffer(v)) {
          const code = typedCode(v)
          if (code < 0) throw new UnsupportedValue(`${owner} ${String(key)}: a ${v.constructor.name} cannot be saved`)
          while (blobs.length % 8 !== 0) blobs.push(0)
          const offset = blobs.length
          blobs.append(new Uint8Array(v.buffer, v.byteOffset, v.byteLength))
          put(T_TYPED, table.typed.length)
          table.typed.push([code, offset, (v as Float64Array).length])
          return
        }
        if (v instanceof Uint8Array)
          return put(Buffer.isBuffer(v) ? T_BUFFER : T_BYTES, str(Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("base64")))
        let id = ids.get(v)
        if (id === undefined) {
          id = queue.length
          ids.set(v, id)
          queue.push(v)
        }
        return put(T_REF, id)
      }
      default:
        throw new UnsupportedValue(`${owner} ${String(key)}: a ${typeof v} cannot be saved`)
    }
  }

  const nameOf = (proto: object | null) => (proto as { constructor?: { name?: string } } | null)?.constructor?.name ?? "?"
  value(root)
  for (let n = 0; n < queue.length; n++) {
    const node = queue[n]!
    if (Array.isArray(node)) {
      kinds.push(Object.isFrozen(node) ? FROZEN_ARRAY : ARRAY)
      put(T_NUMBER, node.length)
      owner = "array element"
      for (let i = 0; i < node.length; i++) value(node[i])
    } else if (node instanceof Map) {
      kinds.push(MAP)
      put(T_NUMBER, node.size)
      owner = "Map entry"
      for (const [k, v] of node) {
        key = k
        value(k)
        value(v)
      }
    } else if (node instanceof Set) {
      kinds.push(SET)
      put(T_NUMBER, node.size)
      owner = "Set element"
      for (const v of node) value(v)
    } else {
      const proto = Object.getPrototypeOf(node) as object | null
      const cls = classIndex.get(proto)
      if (cls === undefined) throw new UnsupportedValue(`an instance of ${nameOf(proto)}: its class is not registered for checkpoints`)
      if (Object.getOwnPropertySymbols(node).length > 0) throw new UnsupportedValue(`an instance of ${nameOf(proto)} has symbol keys`)
      const keys = Object.keys(node)
      const frozen = Object.isFrozen(node) ? 1 : 0
      const signature = `${cls}|${frozen}|${keys.join("|")}`
      let shape = shapeIndex.get(signature)
      if (shape === undefined) {
        shape = table.shapes.length
        table.shapes.push([cls, frozen, ...keys])
        shapeIndex.set(signature, shape)
      }
      kinds.push(shape)
      const record = node as Record<string, unknown>
      owner = cls < 2 ? "object" : table.classes[cls]!
      for (const k of keys) {
        key = k
        value(record[k])
      }
    }
  }
  return {
    table: JSON.stringify(table),
    text: strings.join(""),
    ends: ends.done(),
    kinds: kinds.done(),
    tags: tags.done(),
    values: values.done(),
    floats: floats.done(),
    blobs: blobs.done(),
  }
}

export class CorruptGraph extends Error {}

interface Shape {
  readonly make: () => object
  readonly fill: (o: object, next: () => unknown) => void
}

/**
 * How to make and fill the objects of one shape, written for its keys: an object literal that gives each object its
 * fields at once (in-object, one hidden class) with the shape's prototype, and a filler of named stores in one order.
 * A literal rather than `new` of a constructor: V8 sees that the objects of a literal's site all survive and then
 * allocates them in the old generation directly, instead of copying each one out of the young generation twice.
 * A loop of o[key] = … over each shape's keys, on objects that grew field by field, was several times slower.
 */
const shapeOf = (proto: object | null | undefined, frozen: boolean, keys: ReadonlyArray<string>): Shape => {
  if (proto === undefined) throw new CorruptGraph("a shape names no class")
  // "__proto__" as an own key (JSON.parse makes those) must not become the prototype: it is defined by the filler.
  const plain = keys.filter((k) => k !== "__proto__")
  const store = (k: string) =>
    k === "__proto__"
      ? `Object.defineProperty(o, "__proto__", { value: next(), writable: true, enumerable: true, configurable: true });`
      : `o[${JSON.stringify(k)}] = next();`
  const fill = new Function("o", "next", `${keys.map(store).join("")}${frozen ? "Object.freeze(o);" : ""}`) as Shape["fill"]
  const fields = plain.map((k) => `${JSON.stringify(k)}: undefined`)
  if (proto !== Object.prototype) fields.unshift("__proto__: proto")
  const make = new Function("proto", `return () => ({ ${fields.join(", ")} })`)(proto) as () => object
  return { make, fill }
}

/** Small bigints decoded lately, by value: one position is named by many records (a transfer, its listing, its status). */
const BIGINT_SLOTS = 1 << 20

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

const typedColumn = (t: unknown, k: number): TypedColumn & { readonly make: (typeof typedArrays)[number]; readonly length: number } => {
  if (!Array.isArray(t)) throw new CorruptGraph(`no typed array ${k}`)
  const [code, offset, length] = t as [number, number, number]
  const make = typedArrays[code]
  if (make === undefined || !Number.isInteger(offset) || !Number.isInteger(length) || offset < 0 || length < 0)
    throw new CorruptGraph(`typed array ${k} is damaged`)
  const width = make.BYTES_PER_ELEMENT
  return { make, length, offset, bytes: length * width, bufferBytes: (length + Math.ceil(length / 8) + 64) * width }
}

const typedOfTable = (table: Table): ReadonlyArray<unknown> => (Array.isArray(table.typed) ? table.typed : [])

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

export const decodeGraph = (encoded: EncodedGraph | LoadedGraph, registry: ClassRegistry): unknown => {
  const table = JSON.parse(encoded.table) as Table
  const { kinds, tags, values, floats, text, ends } = encoded
  const blobs = "blobs" in encoded ? encoded.blobs : undefined
  const columns = "columns" in encoded ? encoded.columns : []
  const typed = typedOfTable(table)
  /** Typed arrays already made of a buffer of `columns`: each buffer is one array's, never shared. */
  const made = new Uint8Array(typed.length)
  const typedAt = (k: number): unknown => {
    const { make, length, offset, bytes, bufferBytes } = typedColumn(typed[k], k)
    if (blobs === undefined) {
      const own = columns[k]
      if (own === undefined || own.byteOffset !== 0 || own.byteLength < bufferBytes || made[k] === 1)
        throw new CorruptGraph(`typed array ${k} has no buffer of its own`)
      made[k] = 1
      return new make(own.buffer as ArrayBuffer, 0, length)
    }
    if (offset + bytes > blobs.byteLength) throw new CorruptGraph(`typed array ${k} runs past the blobs`)
    // One copy of its bytes into a buffer of its own (aligned, and free of the encoding's). Not `slice`: on a Buffer
    // that is a view, not a copy.
    const own = new Uint8Array(bufferBytes)
    own.set(blobs.subarray(offset, offset + bytes))
    return new make(own.buffer, 0, length)
  }
  for (let k = 0, start = 0; k < ends.length; k++) {
    const stop = ends[k]!
    if (stop < start || stop > text.length) throw new CorruptGraph("a string runs past the text")
    start = stop
  }
  // Strings are sliced when first met; the text of a bigint or of bytes is read, not kept.
  const strings = new Array<string | undefined>(ends.length)
  const sliceOf = (k: number): string => {
    if (!(k >= 0 && k < ends.length)) throw new CorruptGraph(`no string ${k}`)
    return text.slice(k === 0 ? 0 : ends[k - 1]!, ends[k]!)
  }
  const stringAt = (k: number): string => strings[k] ?? (strings[k] = sliceOf(k))
  // A bigint is a primitive: sharing one between records is invisible, and allocates one instead of several.
  let slots = 16
  while (slots < BIGINT_SLOTS && slots < floats.length) slots *= 2
  // NaN: no value is equal to an empty slot's key.
  const bigintKeys = new Float64Array(slots).fill(NaN)
  const bigints = new Array<bigint>(bigintKeys.length)
  const mask = bigintKeys.length - 1
  const smallBigint = (v: number): bigint => {
    const slot = v & mask
    if (bigintKeys[slot] === v) return bigints[slot]!
    bigintKeys[slot] = v
    return (bigints[slot] = BigInt(v))
  }
  const floatAt = (k: number): number => {
    if (k >= floats.length) throw new CorruptGraph(`no number ${k}`)
    return floats[k]!
  }
  const protos = table.classes.map((name, i) => {
    if (i === 0) return Object.prototype
    if (i === 1) return null
    const c = registry.get(name)
    if (c === undefined) throw new CorruptGraph(`the checkpoint names a class this code does not have: ${name}`)
    return c.prototype
  })
  const shapes = table.shapes.map(([cls, frozen, ...keys]) => shapeOf(protos[cls as number], frozen === 1, keys.map(String)))
  const nodes = new Array<unknown>(kinds.length)
  for (let n = 0; n < kinds.length; n++) {
    const kind = kinds[n]!
    if (kind === ARRAY || kind === FROZEN_ARRAY) nodes[n] = []
    else if (kind === MAP) nodes[n] = new Map()
    else if (kind === SET) nodes[n] = new Set()
    else {
      const shape = shapes[kind]
      if (shape === undefined) throw new CorruptGraph(`node ${n} has no shape ${kind}`)
      nodes[n] = shape.make()
    }
  }
  let i = 0
  const end = tags.length
  const next = (): unknown => {
    if (i >= end) throw new CorruptGraph("the values end before the nodes do")
    const v = values[i]!
    switch (tags[i++]) {
      case T_NUMBER:
        return v
      case T_FLOAT:
        return floatAt(v)
      case T_STRING:
        return stringAt(v)
      case T_REF:
        return nodes[v]
      case T_UNDEFINED:
        return undefined
      case T_NULL:
        return null
      case T_TRUE:
        return true
      case T_FALSE:
        return false
      case T_SMALL_BIGINT:
        return smallBigint(floatAt(v))
      case T_INT64:
        if (i >= end || tags[i] !== T_HIGH_WORD) throw new CorruptGraph("a 64-bit integer without its high word")
        int64Words[0] = v
        int64Words[1] = values[i++]!
        return int64[0]!
      case T_BIGINT:
        return BigInt(sliceOf(v))
      case T_BUFFER:
        return Buffer.from(sliceOf(v), "base64")
      case T_BYTES:
        return new Uint8Array(Buffer.from(sliceOf(v), "base64"))
      case T_TYPED:
        return typedAt(v)
      default:
        throw new CorruptGraph(`unknown value tag ${tags[i - 1]}`)
    }
  }
  const root = next()
  for (let n = 0; n < kinds.length; n++) {
    const kind = kinds[n]!
    const node = nodes[n]
    if (kind === ARRAY || kind === FROZEN_ARRAY) {
      const a = node as Array<unknown>
      const length = next() as number
      for (let k = 0; k < length; k++) a.push(next())
      if (kind === FROZEN_ARRAY) Object.freeze(a)
    } else if (kind === MAP) {
      const m = node as Map<unknown, unknown>
      const size = next() as number
      for (let k = 0; k < size; k++) m.set(next(), next())
    } else if (kind === SET) {
      const s = node as Set<unknown>
      const size = next() as number
      for (let k = 0; k < size; k++) s.add(next())
    } else shapes[kind]!.fill(node as object, next)
  }
  if (i !== end) throw new CorruptGraph("values left over after the last node")
  return root
}
