// Columns for read models that hold a row per transfer or record: growable typed arrays, and a table of interned
// strings kept as UTF-16 code units with a hash index in typed arrays too. A model built of these holds a handful of
// buffers instead of an object (and several strings) per row, so a checkpoint saves and loads them as whole buffers
// and a rebuild appends numbers instead of allocating objects.

type Typed = Float64Array | Int32Array | Uint32Array | Uint8Array

const grow = <A extends Typed>(array: A, need: number, make: (n: number) => A): A => {
  let n = Math.max(16, array.length)
  while (n < need) n *= 2
  // A decoded column keeps room behind it in its buffer (graph-codec.ts): it grows into that without a copy.
  const room = (array.buffer.byteLength - array.byteOffset) / array.BYTES_PER_ELEMENT
  if (room >= need) return new (array.constructor as new (buffer: ArrayBufferLike, offset: number, length: number) => A)(array.buffer, array.byteOffset, Math.min(n, room))
  const bigger = make(n)
  bigger.set(array as never)
  return bigger
}

/** A growable column of numbers (float64: positions, instants, heights; NaN where a row has none). */
export class NumberColumn {
  values = new Float64Array(64)
  length = 0

  push(x: number): number {
    if (this.length === this.values.length) this.values = grow(this.values, this.length + 1, (n) => new Float64Array(n))
    this.values[this.length] = x
    return this.length++
  }

  /** Drops the room kept for growth (before a checkpoint is written). */
  compact(): void {
    if (this.values.length !== this.length) this.values = this.values.slice(0, this.length)
  }
}

/** A growable column of integers that fit 32 bits signed (row numbers, string references; -1 where none). */
export class IntColumn {
  values = new Int32Array(64)
  length = 0

  push(x: number): number {
    if (this.length === this.values.length) this.values = grow(this.values, this.length + 1, (n) => new Int32Array(n))
    this.values[this.length] = x
    return this.length++
  }

  /** Drops the room kept for growth (before a checkpoint is written). */
  compact(): void {
    if (this.values.length !== this.length) this.values = this.values.slice(0, this.length)
  }
}

/** FNV-1a over UTF-16 code units. */
const hashOf = (s: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193)
  return h | 0
}

const CHUNK = 4_096

/**
 * Per table, the strings interned since its hash index was last brought up to date, by text: V8 hashes a string once
 * and keeps it, so a fold looks its strings up here at a Map's cost. Not part of the table's state (a WeakMap: a copy
 * or a decoded table has none, and indexes what it lacks before its first lookup).
 */
const recentOf = new WeakMap<StringTable, Map<string, number>>()

/**
 * Interned strings: each distinct string is stored once and named by its index (a "reference"). `intern` adds,
 * `find` only looks; `at` makes the string again from its characters (a fresh string per read: reads are few, rows
 * are many). Characters are kept a byte each (ids, addresses and amounts are ASCII); a string with a character
 * beyond U+00FF is kept whole in `wide` instead.
 */
export class StringTable {
  /** Strings [0, indexed) are in the hash index; later ones in the recent Map until the next `compact`. */
  indexed = 0
  chars = new Uint8Array(1 << 12)
  charCount = 0
  /** Where string k ends in `chars` (it starts where k - 1 ends). */
  ends = new Uint32Array(256)
  hashes = new Int32Array(256)
  count = 0
  /** Open addressing: string index + 1 per slot, 0 for an empty slot. */
  slots = new Int32Array(512)
  readonly wide = new Map<number, string>()

  /** `searchable`: strings are looked up (interned); otherwise only appended and read back, and never indexed. */
  constructor(readonly searchable = true) {}

  find(s: string): number {
    const k = this.recent().get(s)
    if (k !== undefined) return k
    return this.indexed === 0 ? -1 : this.lookup(s, hashOf(s))
  }

  intern(s: string): number {
    const found = this.find(s)
    if (found >= 0) return found
    const k = this.add(s)
    this.recent().set(s, k)
    return k
  }

  private recent(): Map<string, number> {
    let m = recentOf.get(this)
    if (m === undefined) {
      this.index()
      recentOf.set(this, (m = new Map()))
    }
    return m
  }

  /** Brings the hash index up to date (before a checkpoint is written, or a copy's first lookup). */
  private index(): void {
    if (!this.searchable || this.indexed === this.count) return
    let size = this.slots.length
    while (this.count * 2 > size) size *= 2
    if (size !== this.slots.length) this.rehash(size)
    for (let k = this.indexed; k < this.count; k++) {
      const h = hashOf(this.at(k))
      this.hashes[k] = h
      this.place(k, h)
    }
    this.indexed = this.count
  }

  /**
   * Adds a string that is only ever read back, never looked up (a record id, an amount): no hash to compute. A table
   * is used either way, never both: one whose strings were appended has none of them in its index.
   */
  append(s: string): number {
    return this.add(s)
  }

  private add(s: string): number {
    const k = this.count
    let narrow = true
    for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0xff) narrow = false
    const need = this.charCount + (narrow ? s.length : 0)
    if (need > this.chars.length) this.chars = grow(this.chars, need, (n) => new Uint8Array(n))
    if (narrow) {
      const chars = this.chars
      for (let i = 0, at = this.charCount; i < s.length; i++) chars[at + i] = s.charCodeAt(i)
    } else this.wide.set(k, s)
    this.charCount = need
    if (k === this.ends.length) {
      this.ends = grow(this.ends, k + 1, (n) => new Uint32Array(n))
      this.hashes = grow(this.hashes, k + 1, (n) => new Int32Array(n))
    }
    this.ends[k] = need
    this.hashes[k] = 0
    this.count = k + 1
    return k
  }

  at(k: number): string {
    if (this.wide.size > 0) {
      const w = this.wide.get(k)
      if (w !== undefined) return w
    }
    const start = k === 0 ? 0 : this.ends[k - 1]!
    const end = this.ends[k]!
    if (end - start <= CHUNK) return String.fromCharCode.apply(null, this.chars.subarray(start, end) as unknown as Array<number>)
    let out = ""
    for (let i = start; i < end; i += CHUNK) out += String.fromCharCode.apply(null, this.chars.subarray(i, Math.min(end, i + CHUNK)) as unknown as Array<number>)
    return out
  }

  private lookup(s: string, h: number): number {
    const slots = this.slots
    const mask = slots.length - 1
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const k = slots[i]! - 1
      if (k < 0) return -1
      if (this.hashes[k] === h && this.equals(k, s)) return k
    }
  }

  /** Drops the room kept for growth (before a checkpoint is written); the hash index keeps its size. */
  compact(): void {
    this.index()
    if (this.chars.length !== this.charCount) this.chars = this.chars.slice(0, this.charCount)
    if (this.ends.length !== this.count) {
      this.ends = this.ends.slice(0, this.count)
      this.hashes = this.hashes.slice(0, this.count)
    }
  }

  private equals(k: number, s: string): boolean {
    if (this.wide.size > 0 && this.wide.has(k)) return this.wide.get(k) === s
    const start = k === 0 ? 0 : this.ends[k - 1]!
    if (this.ends[k]! - start !== s.length) return false
    const chars = this.chars
    for (let i = 0; i < s.length; i++) if (chars[start + i] !== s.charCodeAt(i)) return false
    return true
  }

  private place(k: number, h: number): void {
    const slots = this.slots
    const mask = slots.length - 1
    let i = h & mask
    while (slots[i] !== 0) i = (i + 1) & mask
    slots[i] = k + 1
  }

  private rehash(size: number): void {
    this.slots = new Int32Array(size)
    for (let k = 0; k < this.indexed; k++) this.place(k, this.hashes[k]!)
  }
}

/** A map from interned strings to row numbers (-1: none), indexed by reference. */
export class RowByString {
  rows = new Int32Array(256).fill(-1)

  get(ref: number): number {
    return ref >= 0 && ref < this.rows.length ? this.rows[ref]! : -1
  }

  set(ref: number, row: number): void {
    if (ref >= this.rows.length) {
      const old = this.rows.length
      this.rows = grow(this.rows, ref + 1, (n) => new Int32Array(n))
      this.rows.fill(-1, old)
    }
    this.rows[ref] = row
  }
}

/** Compacts every column held in a field of `holder` (a model's rows). */
export const compactColumns = (holder: object): void => {
  for (const v of Object.values(holder)) if (v instanceof IntColumn || v instanceof NumberColumn || v instanceof StringTable) v.compact()
}
