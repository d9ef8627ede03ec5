// The encoder of graph-format.ts: a graph's objects met breadth first, each written as its kind and its values.
import {
  ARRAY,
  type ClassRegistry,
  type EncodedGraph,
  FROZEN_ARRAY,
  INT64_MAX,
  INT64_MIN,
  MAP,
  SAFE_MAX,
  SAFE_MIN,
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
  typedCode,
  UnsupportedValue,
} from "./graph-format.js"

/** A bigint's 64 bits as two 32-bit words (the same memory). */
const int64 = new BigInt64Array(1)
const int64Words = new Uint32Array(int64.buffer)

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

const nameOf = (proto: object | null) => (proto as { constructor?: { name?: string } } | null)?.constructor?.name ?? "?"

/** One graph being written: its table, its growing columns, and the objects met but not yet written. */
class GraphWriter {
  readonly classIndex = new Map<object | null, number>([
    [Object.prototype, 0],
    [null, 1],
  ])
  readonly table: Table = { classes: ["Object", "null"], shapes: [], typed: [] }
  readonly blobs = new Growing(new Uint8Array(4096), (n) => new Uint8Array(n))
  readonly strings: Array<string> = []
  readonly ends = new Growing(new Uint32Array(1024), (n) => new Uint32Array(n))
  textLength = 0
  readonly shapeIndex = new Map<string, number>()
  readonly stringIndex = new Map<string, number>()
  readonly ids = new Map<object, number>()
  readonly queue: Array<object> = []
  readonly kinds = new Growing(new Int32Array(1024), (n) => new Int32Array(n))
  readonly tags = new Growing(new Uint8Array(4096), (n) => new Uint8Array(n))
  readonly values = new Growing(new Uint32Array(4096), (n) => new Uint32Array(n))
  readonly floats = new Growing(new Float64Array(256), (n) => new Float64Array(n))
  // Where the value being written sits, for the error that names it.
  owner = "root"
  key: unknown = ""

  constructor(registry: ClassRegistry) {
    for (const [name, c] of registry) {
      this.classIndex.set(c.prototype, this.table.classes.length)
      this.table.classes.push(name)
    }
  }

  str(s: string): number {
    let i = this.stringIndex.get(s)
    if (i === undefined) {
      i = this.strings.length
      this.strings.push(s)
      this.textLength += s.length
      this.ends.push(this.textLength)
      this.stringIndex.set(s, i)
    }
    return i
  }

  put(tag: number, value: number): void {
    this.tags.push(tag)
    this.values.push(value)
  }

  float(tag: number, x: number): void {
    this.put(tag, this.floats.length)
    this.floats.push(x)
  }

  value(v: unknown): void {
    switch (typeof v) {
      case "number":
        return Number.isInteger(v) && v >= 0 && v <= 0xffffffff && !Object.is(v, -0) ? this.put(T_NUMBER, v) : this.float(T_FLOAT, v)
      case "string":
        return this.put(T_STRING, this.str(v))
      case "boolean":
        return this.put(v ? T_TRUE : T_FALSE, 0)
      case "undefined":
        return this.put(T_UNDEFINED, 0)
      case "bigint":
        return this.bigint(v)
      case "object":
        return v === null ? this.put(T_NULL, 0) : this.object(v)
      default:
        throw new UnsupportedValue(`${this.owner} ${String(this.key)}: a ${typeof v} cannot be saved`)
    }
  }

  bigint(v: bigint): void {
    if (v >= SAFE_MIN && v <= SAFE_MAX) return this.float(T_SMALL_BIGINT, Number(v))
    if (v < INT64_MIN || v > INT64_MAX) return this.put(T_BIGINT, this.str(v.toString()))
    int64[0] = v
    this.put(T_INT64, int64Words[0]!)
    this.put(T_HIGH_WORD, int64Words[1]!)
  }

  /** An object as a value: a typed array's bytes, a buffer's base64, else a reference to its node. */
  object(v: object): void {
    if (ArrayBuffer.isView(v) && !Buffer.isBuffer(v)) return this.typed(v)
    if (v instanceof Uint8Array)
      return this.put(
        Buffer.isBuffer(v) ? T_BUFFER : T_BYTES,
        this.str(Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("base64")),
      )
    let id = this.ids.get(v)
    if (id === undefined) {
      id = this.queue.length
      this.ids.set(v, id)
      this.queue.push(v)
    }
    this.put(T_REF, id)
  }

  typed(v: ArrayBufferView): void {
    const code = typedCode(v)
    if (code < 0) throw new UnsupportedValue(`${this.owner} ${String(this.key)}: a ${v.constructor.name} cannot be saved`)
    const blobs = this.blobs
    while (blobs.length % 8 !== 0) blobs.push(0)
    const offset = blobs.length
    blobs.append(new Uint8Array(v.buffer, v.byteOffset, v.byteLength))
    this.put(T_TYPED, this.table.typed.length)
    this.table.typed.push([code, offset, (v as Float64Array).length])
  }

  /** A node: its kind, then its values (an array's, a Map's or a Set's count first). */
  node(node: object): void {
    if (Array.isArray(node)) {
      this.kinds.push(Object.isFrozen(node) ? FROZEN_ARRAY : ARRAY)
      this.put(T_NUMBER, node.length)
      this.owner = "array element"
      for (let i = 0; i < node.length; i++) this.value(node[i])
    } else if (node instanceof Map) {
      this.kinds.push(MAP)
      this.put(T_NUMBER, node.size)
      this.owner = "Map entry"
      for (const [k, v] of node) {
        this.key = k
        this.value(k)
        this.value(v)
      }
    } else if (node instanceof Set) {
      this.kinds.push(SET)
      this.put(T_NUMBER, node.size)
      this.owner = "Set element"
      for (const v of node) this.value(v)
    } else this.record(node)
  }

  /** An object of a registered class (or a plain one): its shape, then its own fields' values in the shape's order. */
  record(node: object): void {
    const proto = Object.getPrototypeOf(node) as object | null
    const cls = this.classIndex.get(proto)
    if (cls === undefined) throw new UnsupportedValue(`an instance of ${nameOf(proto)}: its class is not registered for checkpoints`)
    if (Object.getOwnPropertySymbols(node).length > 0) throw new UnsupportedValue(`an instance of ${nameOf(proto)} has symbol keys`)
    const keys = Object.keys(node)
    const frozen = Object.isFrozen(node) ? 1 : 0
    const signature = `${cls}|${frozen}|${keys.join("|")}`
    let shape = this.shapeIndex.get(signature)
    if (shape === undefined) {
      shape = this.table.shapes.length
      this.table.shapes.push([cls, frozen, ...keys])
      this.shapeIndex.set(signature, shape)
    }
    this.kinds.push(shape)
    const fields = node as Record<string, unknown>
    this.owner = cls < 2 ? "object" : this.table.classes[cls]!
    for (const k of keys) {
      this.key = k
      this.value(fields[k])
    }
  }

  done(): EncodedGraph {
    return {
      table: JSON.stringify(this.table),
      text: this.strings.join(""),
      ends: this.ends.done(),
      kinds: this.kinds.done(),
      tags: this.tags.done(),
      values: this.values.done(),
      floats: this.floats.done(),
      blobs: this.blobs.done(),
    }
  }
}

export const encodeGraph = (root: object, registry: ClassRegistry): EncodedGraph => {
  const writer = new GraphWriter(registry)
  writer.value(root)
  for (let n = 0; n < writer.queue.length; n++) writer.node(writer.queue[n]!)
  return writer.done()
}
