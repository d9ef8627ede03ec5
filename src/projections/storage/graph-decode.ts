// The decoder of graph-format.ts: the nodes made first (empty, of their shapes), then filled from the values in
// the order the encoder wrote them, so a reference to a node not yet filled is already the node.
import {
  ARRAY,
  type ClassRegistry,
  CorruptGraph,
  type EncodedGraph,
  FROZEN_ARRAY,
  type LoadedGraph,
  MAP,
  SET,
  T_BIGINT,
  T_BUFFER,
  T_BYTES,
  T_FALSE,
  T_FLOAT,
  T_HIGH_WORD,
  T_INT64,
  T_NULL,
  T_NUMBER,
  T_REF,
  T_SMALL_BIGINT,
  T_STRING,
  T_TRUE,
  T_TYPED,
  T_UNDEFINED,
  type Table,
  typedColumn,
  typedOfTable,
} from "./graph-format.js"

/** A bigint's 64 bits as two 32-bit words (the same memory). */
const int64 = new BigInt64Array(1)
const int64Words = new Uint32Array(int64.buffer)

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

/** The typed array of the table's entry k: a view over its own buffer of `columns`, or a copy out of `blobs`. */
const typedReader = (table: Table, encoded: EncodedGraph | LoadedGraph): ((k: number) => unknown) => {
  const blobs = "blobs" in encoded ? encoded.blobs : undefined
  const columns = "columns" in encoded ? encoded.columns : []
  const typed = typedOfTable(table)
  /** Typed arrays already made of a buffer of `columns`: each buffer is one array's, never shared. */
  const made = new Uint8Array(typed.length)
  return (k) => {
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
}

/** The strings' ends are checked once, whole; then string k is `sliceOf(k)`, and `stringAt(k)` keeps it. */
const stringReader = (text: string, ends: Uint32Array) => {
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
  return { sliceOf, stringAt }
}

/**
 * A bigint of a safe integer, shared with the last one decoded of the same value in its slot: a bigint is a
 * primitive, so sharing one between records is invisible, and allocates one instead of several.
 */
const smallBigints = (count: number): ((v: number) => bigint) => {
  let slots = 16
  while (slots < BIGINT_SLOTS && slots < count) slots *= 2
  // NaN: no value is equal to an empty slot's key.
  const bigintKeys = new Float64Array(slots).fill(NaN)
  const bigints = new Array<bigint>(bigintKeys.length)
  const mask = bigintKeys.length - 1
  return (v) => {
    const slot = v & mask
    if (bigintKeys[slot] === v) return bigints[slot]!
    bigintKeys[slot] = v
    return (bigints[slot] = BigInt(v))
  }
}

/** The table's shapes, each with its class's prototype from `registry`. */
const shapesOf = (table: Table, registry: ClassRegistry): Array<Shape> => {
  const protos = table.classes.map((name, i) => {
    if (i === 0) return Object.prototype
    if (i === 1) return null
    const c = registry.get(name)
    if (c === undefined) throw new CorruptGraph(`the checkpoint names a class this code does not have: ${name}`)
    return c.prototype
  })
  return table.shapes.map(([cls, frozen, ...keys]) => shapeOf(protos[cls as number], frozen === 1, keys.map(String)))
}

/** Every node, empty: an array, a Map, a Set, or an object of its shape with its fields not yet set. */
const emptyNodes = (kinds: Int32Array, shapes: ReadonlyArray<Shape>): Array<unknown> => {
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
  return nodes
}

/** The values one after the other: `next` reads one, `left` says whether any is left unread. */
const valueReader = (
  encoded: EncodedGraph | LoadedGraph,
  nodes: ReadonlyArray<unknown>,
  typedAt: (k: number) => unknown,
  { sliceOf, stringAt }: ReturnType<typeof stringReader>,
) => {
  const { tags, values, floats } = encoded
  const smallBigint = smallBigints(floats.length)
  const floatAt = (k: number): number => {
    if (k >= floats.length) throw new CorruptGraph(`no number ${k}`)
    return floats[k]!
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
  return { next, left: () => i !== end }
}

/** Fills each node, in order, from the values: an array's, a Map's or a Set's count first, an object's fields by its shape. */
const fillNodes = (kinds: Int32Array, nodes: ReadonlyArray<unknown>, shapes: ReadonlyArray<Shape>, next: () => unknown): void => {
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
}

export const decodeGraph = (encoded: EncodedGraph | LoadedGraph, registry: ClassRegistry): unknown => {
  const table = JSON.parse(encoded.table) as Table
  const typedAt = typedReader(table, encoded)
  const strings = stringReader(encoded.text, encoded.ends)
  const shapes = shapesOf(table, registry)
  const nodes = emptyNodes(encoded.kinds, shapes)
  const { next, left } = valueReader(encoded, nodes, typedAt, strings)
  const root = next()
  fillNodes(encoded.kinds, nodes, shapes, next)
  if (left()) throw new CorruptGraph("values left over after the last node")
  return root
}
