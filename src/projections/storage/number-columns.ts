// Columns of numbers for read models that hold a row per transfer or record: growable typed arrays (a number or
// an integer per row, and a row per string reference), so a model holds a handful of buffers instead of an object per
// row and a checkpoint saves and loads them as whole buffers.

type Typed = Float64Array<ArrayBufferLike> | Int32Array<ArrayBufferLike> | Uint32Array<ArrayBufferLike> | Uint8Array<ArrayBufferLike>

/**
 * A column's grown storage is a SharedArrayBuffer, never handed to another thread: V8 counts an ArrayBuffer's bytes
 * as external memory, and every 64 MB of it allocated since the last full collection starts one, which marks the
 * whole heap. A rebuild of a million events grows its columns by some 180 MB (each doubling allocates anew), so it
 * started two such collections, and with the memory store's log resident (a gigabyte of event objects) each took
 * seconds of CPU on the collector's threads: more than the folds themselves. A SharedArrayBuffer's bytes are not
 * counted so (V8 keeps them off the per-isolate external memory, as a SharedArrayBuffer may be shared between
 * isolates); the memory is the same and is freed with its array. Copies (`slice`, a checkpoint's decoding) are plain
 * ArrayBuffers again.
 */
const sharedF64 = (n: number) => new Float64Array(new SharedArrayBuffer(n * Float64Array.BYTES_PER_ELEMENT))
const sharedI32 = (n: number) => new Int32Array(new SharedArrayBuffer(n * Int32Array.BYTES_PER_ELEMENT))

const grow = <A extends Typed>(array: A, need: number, make: (n: number) => A): A => {
  let n = Math.max(16, array.length)
  while (n < need) n *= 2
  // A decoded column keeps room behind it in its buffer (graph-decode.ts): it grows into that without a copy.
  const room = (array.buffer.byteLength - array.byteOffset) / array.BYTES_PER_ELEMENT
  if (room >= need)
    return new (array.constructor as new (buffer: ArrayBufferLike, offset: number, length: number) => A)(
      array.buffer,
      array.byteOffset,
      Math.min(n, room),
    )
  const bigger = make(n)
  bigger.set(array as never)
  return bigger
}

/** A growable column of numbers (float64: positions, instants, heights; NaN where a row has none). */
export class NumberColumn {
  values: Float64Array<ArrayBufferLike> = new Float64Array(64)
  length = 0

  push(x: number): number {
    if (this.length === this.values.length) this.values = grow(this.values, this.length + 1, sharedF64)
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
  values: Int32Array<ArrayBufferLike> = new Int32Array(64)
  length = 0

  push(x: number): number {
    if (this.length === this.values.length) this.values = grow(this.values, this.length + 1, sharedI32)
    this.values[this.length] = x
    return this.length++
  }

  /** Drops the room kept for growth (before a checkpoint is written). */
  compact(): void {
    if (this.values.length !== this.length) this.values = this.values.slice(0, this.length)
  }
}

/** A map from interned strings to row numbers (-1: none), indexed by reference. */
export class RowByString {
  rows: Int32Array<ArrayBufferLike> = new Int32Array(256).fill(-1)

  get(ref: number): number {
    return ref >= 0 && ref < this.rows.length ? this.rows[ref]! : -1
  }

  set(ref: number, row: number): void {
    if (ref >= this.rows.length) {
      const old = this.rows.length
      this.rows = grow(this.rows, ref + 1, sharedI32)
      this.rows.fill(-1, old)
    }
    this.rows[ref] = row
  }
}
