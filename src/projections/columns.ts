// Columns for read models that hold a row per transfer or record: growable typed arrays, and a table of interned
// strings kept as UTF-16 code units with a hash index in typed arrays too. A model built of these holds a handful of
// buffers instead of an object (and several strings) per row, so a checkpoint saves and loads them as whole buffers
// and a rebuild appends numbers instead of allocating objects.

type Typed = Float64Array | Int32Array | Uint32Array | Uint16Array

const grow = <A extends Typed>(array: A, need: number, make: (n: number) => A): A => {
  let n = array.length
  while (n < need) n *= 2
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
}

/** FNV-1a over UTF-16 code units. */
const hashOf = (s: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193)
  return h | 0
}

const CHUNK = 4_096

/**
 * Interned strings: each distinct string is stored once and named by its index (a "reference"). `intern` adds,
 * `find` only looks; `at` makes the string again from its code units (a fresh string per read: reads are few, rows
 * are many).
 */
export class StringTable {
  chars = new Uint16Array(1 << 12)
  charCount = 0
  /** Where string k ends in `chars` (it starts where k - 1 ends). */
  ends = new Uint32Array(256)
  hashes = new Int32Array(256)
  count = 0
  /** Open addressing: string index + 1 per slot, 0 for an empty slot. */
  slots = new Int32Array(512)

  find(s: string): number {
    return this.lookup(s, hashOf(s))
  }

  intern(s: string): number {
    const h = hashOf(s)
    const found = this.lookup(s, h)
    if (found >= 0) return found
    const k = this.count
    const need = this.charCount + s.length
    if (need > this.chars.length) this.chars = grow(this.chars, need, (n) => new Uint16Array(n))
    const chars = this.chars
    for (let i = 0, at = this.charCount; i < s.length; i++) chars[at + i] = s.charCodeAt(i)
    this.charCount = need
    if (k === this.ends.length) {
      this.ends = grow(this.ends, k + 1, (n) => new Uint32Array(n))
      this.hashes = grow(this.hashes, k + 1, (n) => new Int32Array(n))
    }
    this.ends[k] = need
    this.hashes[k] = h
    this.count = k + 1
    if (this.count * 2 > this.slots.length) this.rehash(this.slots.length * 2)
    else this.place(k, h)
    return k
  }

  at(k: number): string {
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

  private equals(k: number, s: string): boolean {
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
    for (let k = 0; k < this.count; k++) this.place(k, this.hashes[k]!)
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
