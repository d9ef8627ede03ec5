// A value's history keyed by log position: O(1) append, O(log n) lookup "as of" a position.
// Compact on purpose (a million-event rebuild keeps one per transfer, most with one or two changes): the first two
// entries live in fields, the rest in one array of alternating position and value, created only on the third change.
// Positions are kept as numbers (exact below 2^53, which no log reaches): a bigint is an object of its own, a small
// number is not, and a restart from a checkpoint makes every one it holds again.
import { countAtOrBefore, keyOfArray } from "./at-or-before.js"

/** The position of pair `i` of [position, value, position, value, …]. */
const pairPosition = (pairs: ReadonlyArray<unknown>, i: number): number => pairs[i << 1] as number

export class History<T> {
  private p0: number | undefined = undefined
  private v0: T | undefined = undefined
  private p1: number | undefined = undefined
  private v1: T | undefined = undefined
  /** [position, value, position, value, …] of the entries after the second. */
  private rest: Array<number | T> | undefined = undefined

  /** Records `value` as of `position`; positions must not decrease. */
  set(at: bigint, value: T): void {
    const position = Number(at)
    const rest = this.rest
    if (rest !== undefined) {
      const n = rest.length
      if (rest[n - 2] === position) rest[n - 1] = value
      else rest.push(position, value)
    } else if (this.p0 === undefined || (this.p1 === undefined && this.p0 === position)) {
      this.p0 = position
      this.v0 = value
    } else if (this.p1 === undefined || this.p1 === position) {
      this.p1 = position
      this.v1 = value
    } else this.rest = [position, value]
  }

  latest(): T | undefined {
    const rest = this.rest
    if (rest !== undefined) return rest[rest.length - 1] as T
    return this.p1 === undefined ? this.v0 : this.v1
  }

  /** The value in force after the event at `asOf` (undefined before the first change). */
  at(asOf: bigint | undefined): T | undefined {
    if (asOf === undefined) return this.latest()
    const position = Number(asOf)
    if (this.p0 === undefined || this.p0 > position) return undefined
    if (this.p1 === undefined || this.p1 > position) return this.v0
    const rest = this.rest
    if (rest === undefined) return this.v1
    // Entries of `rest` at pair index i: position rest[2i], value rest[2i + 1]; find the last position ≤ `position`.
    const n = countAtOrBefore(rest, rest.length >>> 1, pairPosition, position)
    return n === 0 ? this.v1 : (rest[(n << 1) - 1] as T)
  }

  get length(): number {
    return this.p0 === undefined ? 0 : this.p1 === undefined ? 1 : 2 + (this.rest === undefined ? 0 : this.rest.length >>> 1)
  }

  /** Position of the first change (undefined before it). */
  firstAt(): bigint | undefined {
    return this.p0 === undefined ? undefined : BigInt(this.p0)
  }

  entries(): ReadonlyArray<readonly [bigint, T]> {
    if (this.p0 === undefined) return []
    const out: Array<readonly [bigint, T]> = [[BigInt(this.p0), this.v0 as T]]
    if (this.p1 !== undefined) out.push([BigInt(this.p1), this.v1 as T])
    const rest = this.rest ?? []
    for (let i = 0; i < rest.length; i += 2) out.push([BigInt(rest[i] as number), rest[i + 1] as T])
    return out
  }
}

/** An append-only list ordered by creation position; `upTo(p)` is the prefix created at or before p. */
export class CreationOrder<T> {
  /** As numbers, as History keeps them. */
  private readonly positions: Array<number> = []
  readonly items: Array<T> = []

  push(position: bigint, item: T): void {
    this.positions.push(Number(position))
    this.items.push(item)
  }

  upTo(position: bigint | undefined): ReadonlyArray<T> {
    if (position === undefined) return this.items
    return this.items.slice(0, countAtOrBefore(this.positions, this.positions.length, keyOfArray, Number(position)))
  }

  get length(): number {
    return this.items.length
  }
}

/**
 * A value set at most once (e.g. where a transaction was mined): History's reading interface, one allocation. A
 * record that has one such value may extend it and be its own (field names here are chosen not to collide).
 */
export class Once<T> {
  /** A number, as History keeps positions. */
  private onceAt: number | undefined = undefined
  private onceValue: T | undefined = undefined

  set(position: bigint, value: T): void {
    if (this.onceAt !== undefined) return
    this.onceAt = Number(position)
    this.onceValue = value
  }

  latest(): T | undefined {
    return this.onceValue
  }

  at(position: bigint | undefined): T | undefined {
    return position === undefined || (this.onceAt !== undefined && this.onceAt <= Number(position)) ? this.onceValue : undefined
  }
}
