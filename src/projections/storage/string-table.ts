// Tables of interned strings for read models: packed a byte per character, with a hash index in typed arrays,
// when a checkpoint is written, so a checkpoint saves and loads a table as a few buffers instead of its strings.
import { keepAside } from "./not-state.js"

/** FNV-1a over UTF-16 code units. */
const hashOf = (s: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193)
  return h | 0
}

/**
 * The added index's hash: FNV-1a over the length, eight characters spread over the string and the last 16. The big
 * table's strings are transaction ids (64 hex digits or more, all of them varying at the end): hashing the whole id
 * cost a million-event fold 0.2 µs per event. Strings alike in the characters read only probe longer; a string is
 * compared whole whenever the hashes agree.
 */
const tailHashOf = (s: string): number => {
  const n = s.length
  let h = Math.imul(0x811c9dc5 ^ n, 0x01000193)
  if (n > 24) {
    const step = (n - 16) >>> 3
    for (let i = 0; i < 8; i++) h = Math.imul(h ^ s.charCodeAt(i * step), 0x01000193)
  }
  for (let i = n > 16 ? n - 16 : 0; i < n; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193)
  return h | 0
}

/** The last string interned (or found) at each of a few call sites of a table, and its reference: not state. */
interface Memo {
  readonly strings: Array<string>
  readonly refs: Int32Array
}

const MEMO_SLOTS = 8

const CHUNK = 4_096
/** Strings of the packed prefix decoded lately, by reference (a direct-mapped cache). */
const CACHE_SLOTS = 1 << 12

/** A packed table's decoded strings: not state (neither saved nor copied), so kept apart from its fields. */
interface Decoded {
  readonly refs: Int32Array
  readonly strings: Array<string | undefined>
}

/**
 * Interned strings: each distinct string is stored once and named by its index (a "reference"). `intern` adds,
 * `find` only looks, `append` adds without looking; `at` reads a string back.
 *
 * A table has two parts. The strings a fold added since the last checkpoint are kept as the events gave them, as
 * references in `added` (and, in a searchable table, in the `recent` Map, whose lookups cost V8 one hash per
 * string): a fold copies no characters. Past `INDEXED_FROM` added strings (the table of every transaction id) they
 * are looked up in an index of their own instead (`AddedIndex`), and `recent` is left empty. `pack` (before a
 * checkpoint is written) moves them into the packed prefix: characters a byte each (ids, addresses and amounts are
 * ASCII; a string with a character beyond U+00FF is kept whole in `wide`) with a hash index in typed arrays. A
 * checkpoint saves only the packed form, so a decoded table holds a few buffers instead of a million strings, and
 * makes a string of its prefix only when it is read.
 */
export class StringTable {
  /** Strings [0, packed) are in the packed prefix; string k ≥ packed is added[k - packed]. */
  packed = 0
  chars = new Uint8Array(0)
  /** Where string k < packed ends in `chars` (it starts where k - 1 ends). */
  ends = new Uint32Array(0)
  /** A searchable table's hashes of its packed strings, and its index over them by open addressing (string + 1 per slot, 0: empty). */
  hashes = new Int32Array(0)
  slots = new Int32Array(0)
  wide = new Map<number, string>()
  added: Array<string> = []
  /** A searchable table's added strings by text. */
  recent = new Map<string, number>()

  /** `searchable`: strings are looked up (interned); otherwise only appended and read back, and never indexed. */
  constructor(readonly searchable = true) {}

  get count(): number {
    return this.packed + this.added.length
  }

  /** The index of the added strings, once there are too many for `recent`: not state (made again from `added`). */
  declare private index: AddedIndex | undefined

  find(s: string): number {
    if (this.recent.size === this.added.length) {
      const k = this.recent.get(s)
      if (k !== undefined) return k
      return this.packed === 0 ? -1 : this.lookup(s, hashOf(s))
    }
    const j = findAdded(this.addedIndex(), this.added, s, tailHashOf(s))
    if (j >= 0) return this.packed + j
    return this.packed === 0 ? -1 : this.lookup(s, hashOf(s))
  }

  declare private memo: Memo | undefined

  private memoOf(): Memo {
    let memo = this.memo
    if (memo === undefined) {
      memo = keepAside(this, "memo", { strings: new Array<string>(MEMO_SLOTS).fill(""), refs: new Int32Array(MEMO_SLOTS).fill(-1) })
    }
    return memo
  }

  /**
   * intern(s), tried first against the last string interned at `slot` (a call site's own number below MEMO_SLOTS):
   * the folds meet the same chain, asset, fee or vault in event after event, and comparing with the last one costs
   * less than a lookup. A reference never changes (strings are only added), so the last answer holds.
   */
  internAt(slot: number, s: string): number {
    const memo = this.memoOf()
    if (memo.refs[slot]! >= 0 && memo.strings[slot] === s) return memo.refs[slot]!
    const k = this.intern(s)
    memo.strings[slot] = s
    memo.refs[slot] = k
    return k
  }

  /** find(s), tried first against the last string interned or found at `slot` (a string not found is not remembered). */
  findAt(slot: number, s: string): number {
    const memo = this.memoOf()
    if (memo.refs[slot]! >= 0 && memo.strings[slot] === s) return memo.refs[slot]!
    const k = this.find(s)
    if (k >= 0) {
      memo.strings[slot] = s
      memo.refs[slot] = k
    }
    return k
  }

  intern(s: string): number {
    if (this.recent.size === this.added.length) {
      const found = this.find(s)
      if (found >= 0) return found
      const k = this.packed + this.added.length
      this.added.push(s)
      this.recent.set(s, k)
      if (this.added.length >= INDEXED_FROM) {
        this.addedIndex()
        this.recent = new Map()
      }
      return k
    }
    const h = tailHashOf(s)
    const index = this.addedIndex()
    const j = findAdded(index, this.added, s, h)
    if (j >= 0) return this.packed + j
    if (this.packed > 0) {
      const k = this.lookup(s, hashOf(s))
      if (k >= 0) return k
    }
    this.added.push(s)
    placeAdded(index, h, this.added.length - 1)
    return this.packed + this.added.length - 1
  }

  /** The added strings' index, made from `added` when there is none (a table copied by a snapshot, or decoded). */
  private addedIndex(): AddedIndex {
    let index = this.index
    if (index === undefined || index.size !== this.added.length) {
      index = { pairs: new Int32Array(64), size: 0 }
      for (let j = 0; j < this.added.length; j++) placeAdded(index, tailHashOf(this.added[j]!), j)
      keepAside(this, "index", index)
    }
    return index
  }

  /**
   * Adds a string that is only ever read back, never looked up (a record id, an amount). A table is used either way,
   * never both: one whose strings were appended has none of them in its index.
   */
  append(s: string): number {
    this.added.push(s)
    return this.packed + this.added.length - 1
  }

  at(k: number): string {
    return k >= this.packed ? this.added[k - this.packed]! : this.unpacked(k)
  }

  /** Moves the added strings into the packed prefix (before a checkpoint is written): what a checkpoint saves. */
  pack(): void {
    const added = this.added
    if (added.length === 0) return
    const from = this.packed
    const count = from + added.length
    let charCount = this.chars.length
    for (const s of added) charCount += s.length
    const chars = new Uint8Array(charCount)
    chars.set(this.chars)
    const ends = new Uint32Array(count)
    ends.set(this.ends)
    let at = this.chars.length
    for (let j = 0; j < added.length; j++) {
      const s = added[j]!
      let narrow = true
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i)
        if (c > 0xff) narrow = false
        chars[at + i] = c
      }
      if (narrow) at += s.length
      else this.wide.set(from + j, s)
      ends[from + j] = at
    }
    this.chars = at === charCount ? chars : chars.slice(0, at)
    this.ends = ends
    if (this.searchable) {
      const hashes = new Int32Array(count)
      hashes.set(this.hashes)
      for (let j = 0; j < added.length; j++) hashes[from + j] = hashOf(added[j]!)
      this.hashes = hashes
      let size = Math.max(16, this.slots.length)
      while (count * 2 > size) size *= 2
      if (size !== this.slots.length) {
        this.slots = new Int32Array(size)
        for (let k = 0; k < from; k++) this.place(k, hashes[k]!)
      }
      for (let k = from; k < count; k++) this.place(k, hashes[k]!)
    }
    this.packed = count
    this.added = []
    this.recent = new Map()
    if (this.index !== undefined) this.index = undefined
  }

  /** Packs what was added (the columns' form of "dropping the room kept for growth"). */
  compact(): void {
    this.pack()
  }

  private unpacked(k: number): string {
    let d = decodedOf.get(this)
    if (d === undefined)
      decodedOf.set(this, (d = { refs: new Int32Array(CACHE_SLOTS).fill(-1), strings: new Array<string | undefined>(CACHE_SLOTS) }))
    const slot = k & (CACHE_SLOTS - 1)
    if (d.refs[slot] === k) return d.strings[slot]!
    const s = this.decode(k)
    d.refs[slot] = k
    d.strings[slot] = s
    return s
  }

  private decode(k: number): string {
    if (this.wide.size > 0) {
      const w = this.wide.get(k)
      if (w !== undefined) return w
    }
    const start = k === 0 ? 0 : this.ends[k - 1]!
    const end = this.ends[k]!
    if (end - start <= CHUNK) return String.fromCharCode.apply(null, this.chars.subarray(start, end) as unknown as Array<number>)
    let out = ""
    for (let i = start; i < end; i += CHUNK)
      out += String.fromCharCode.apply(null, this.chars.subarray(i, Math.min(end, i + CHUNK)) as unknown as Array<number>)
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
}

/**
 * A searchable table's added strings past this many are indexed by `AddedIndex`: a Map of a few hundred thousand
 * fresh strings costs a rebuild 2.5 µs per miss (the transaction ids, one new per submission: 0.8 s of a
 * million-event fold), where the index's probe reads a typed array and touches a string only when the hashes agree.
 */
const INDEXED_FROM = 1 << 14

/**
 * Open addressing over the added strings: `pairs` holds (hash, added index + 1) per slot, 0 marking an empty one; at
 * most half the slots are taken. A probe compares hashes and reads a string only when they agree.
 */
interface AddedIndex {
  pairs: Int32Array
  size: number
}

const findAdded = (index: AddedIndex, added: ReadonlyArray<string>, s: string, h: number): number => {
  const pairs = index.pairs
  const mask = (pairs.length >> 1) - 1
  for (let i = h & mask; ; i = (i + 1) & mask) {
    const j = pairs[2 * i + 1]! - 1
    if (j < 0) return -1
    if (pairs[2 * i] === h && added[j] === s) return j
  }
}

const placeAdded = (index: AddedIndex, h: number, j: number): void => {
  if ((index.size + 1) * 2 > index.pairs.length >> 1) {
    const old = index.pairs
    index.pairs = new Int32Array(old.length * 2)
    index.size = 0
    for (let i = 0; i < old.length; i += 2) if (old[i + 1] !== 0) placeAdded(index, old[i]!, old[i + 1]! - 1)
  }
  const pairs = index.pairs
  const mask = (pairs.length >> 1) - 1
  let i = h & mask
  while (pairs[2 * i + 1] !== 0) i = (i + 1) & mask
  pairs[2 * i] = h
  pairs[2 * i + 1] = j + 1
  index.size++
}

/** Per packed table, its strings decoded lately (a WeakMap: not the table's state, and only the packed path asks). */
const decodedOf = new WeakMap<StringTable, Decoded>()
