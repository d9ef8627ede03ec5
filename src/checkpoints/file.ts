// One checkpoint file: the read models encoded at a log position, with what says whether it may be used — the
// fingerprint of the read-model code, the position and a digest of the event there (the log it was folded from),
// and a CRC of each section (a damaged or cut-off file is refused, never half used).
// Layout: a magic line, a JSON header line, then the sections, each starting at a multiple of 8 bytes.
import { createHash } from "node:crypto"
import { closeSync, fstatSync, fsyncSync, openSync, readSync, renameSync, unlinkSync, writeSync } from "node:fs"
import { dirname } from "node:path"
import { crc32 } from "node:zlib"
import { typedColumnsOf, type EncodedGraph, type LoadedGraph, type TypedColumn } from "../projections/storage/graph-codec.js"
import type { RecordedEvent } from "../store/event-store.js"

const MAGIC = "custody-sim read-model checkpoint 8\n"

export interface CheckpointHeader {
  /** Fingerprint of the read-model code that wrote it. */
  readonly code: string
  /** Position of the last event folded (as text: a bigint). */
  readonly position: string
  /** Digest of that event: the same position in another or a rewritten log names another event. */
  readonly event: string
  /** Events folded. */
  readonly count: number
  readonly sections: ReadonlyArray<{ readonly name: keyof EncodedGraph; readonly bytes: number; readonly crc: number }>
}

export class CheckpointRefused extends Error {}

/** What identifies an event in its log: everything recorded of it. */
export const eventDigest = (e: RecordedEvent): string =>
  createHash("sha256")
    .update(JSON.stringify([String(e.position), e.stream, String(e.revision), e.id, e.type, e.data, e.metadata]))
    .digest("base64url")

const pad8 = (n: number) => (8 - (n % 8)) % 8

const bytesOf = (encoded: EncodedGraph): Record<keyof EncodedGraph, Uint8Array> => ({
  table: Buffer.from(encoded.table, "utf8"),
  text: Buffer.from(encoded.text, "utf8"),
  ends: new Uint8Array(encoded.ends.buffer, encoded.ends.byteOffset, encoded.ends.byteLength),
  kinds: new Uint8Array(encoded.kinds.buffer, encoded.kinds.byteOffset, encoded.kinds.byteLength),
  tags: encoded.tags,
  values: new Uint8Array(encoded.values.buffer, encoded.values.byteOffset, encoded.values.byteLength),
  floats: new Uint8Array(encoded.floats.buffer, encoded.floats.byteOffset, encoded.floats.byteLength),
  blobs: encoded.blobs,
})

const order: ReadonlyArray<keyof EncodedGraph> = ["table", "text", "ends", "kinds", "tags", "values", "floats", "blobs"]

/**
 * Writes the file atomically: a temporary file (0600) written and fsynced, renamed over the final name, and the
 * directory fsynced. A process killed at any point leaves the old file or the new one, and at worst a temporary
 * file that no reader looks at.
 */
export const writeCheckpointFile = (file: string, header: Omit<CheckpointHeader, "sections">, encoded: EncodedGraph): number => {
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) throw new Error("checkpoints are written on little-endian machines only")
  const parts = bytesOf(encoded)
  const sections = order.map((name) => ({ name, bytes: parts[name].byteLength, crc: crc32(parts[name]) }))
  const head = Buffer.from(`${MAGIC}${JSON.stringify({ ...header, sections })}\n`, "utf8")
  const temp = `${file}.tmp`
  const fd = openSync(temp, "w", 0o600)
  let size = 0
  try {
    const write = (bytes: Uint8Array) => {
      let done = 0
      while (done < bytes.byteLength) done += writeSync(fd, bytes, done, bytes.byteLength - done)
      size += bytes.byteLength
    }
    write(head)
    for (const name of order) {
      write(new Uint8Array(pad8(size)))
      write(parts[name])
    }
    fsyncSync(fd)
  } catch (e) {
    closeSync(fd)
    unlinkSync(temp)
    throw e
  }
  closeSync(fd)
  renameSync(temp, file)
  const dir = openSync(dirname(file), "r")
  try {
    fsyncSync(dir)
  } finally {
    closeSync(dir)
  }
  return size
}

/** Reads only the header (to choose among files before decoding one). */
export const readCheckpointHeader = (bytes: Buffer): { header: CheckpointHeader; offset: number } => {
  if (bytes.toString("utf8", 0, MAGIC.length) !== MAGIC) throw new CheckpointRefused("not a checkpoint of this format")
  const end = bytes.indexOf(10, MAGIC.length)
  if (end < 0) throw new CheckpointRefused("the header is cut off")
  let header: CheckpointHeader
  try {
    header = JSON.parse(bytes.toString("utf8", MAGIC.length, end)) as CheckpointHeader
  } catch {
    throw new CheckpointRefused("the header is not JSON")
  }
  if (
    typeof header.code !== "string" ||
    typeof header.position !== "string" ||
    typeof header.event !== "string" ||
    !Array.isArray(header.sections)
  )
    throw new CheckpointRefused("the header lacks fields")
  return { header, offset: end + 1 }
}

/**
 * The encoded models of a file whose every section is whole (length and CRC); throws CheckpointRefused otherwise.
 * Each section is read into a buffer of its own, and each typed array of `blobs` (the models' columns, nearly all of
 * the file) straight into the buffer its decoded column keeps, with the room that column grows into: the file's
 * bytes are copied once, by the kernel, and the CRC of `blobs` is taken over the pieces as they are read.
 */
export const readCheckpointFile = (file: string): { header: CheckpointHeader; encoded: LoadedGraph } => {
  const fd = openSync(file, "r")
  try {
    const size = fstatSync(fd).size
    const readAt = <B extends Uint8Array>(into: B, position: number): B => {
      let done = 0
      while (done < into.byteLength) {
        const n = readSync(fd, into, done, into.byteLength - done, position + done)
        if (n === 0) throw new CheckpointRefused("the file is cut off")
        done += n
      }
      return into
    }
    const first = Buffer.alloc(Math.min(size, HEADER_BYTES))
    const { header, offset } = readCheckpointHeader(readAt(first, 0))
    let at = offset
    const out: Partial<Record<Exclude<keyof EncodedGraph, "blobs">, Uint8Array>> = {}
    let columns: ReadonlyArray<Uint8Array> = []
    for (const name of order) {
      const s = header.sections.find((x) => x.name === name)
      if (s === undefined) throw new CheckpointRefused(`no ${name} section`)
      at += pad8(at)
      if (!Number.isInteger(s.bytes) || s.bytes < 0 || at + s.bytes > size) throw new CheckpointRefused("the file is cut off")
      if (name === "blobs") columns = readColumns(readAt, at, s.bytes, s.crc, out.table!)
      else {
        // A buffer of its own: typed arrays are made over it, aligned.
        const part = readAt(new Uint8Array(s.bytes), at)
        if (crc32(part) !== s.crc) throw new CheckpointRefused(`the ${name} section is damaged`)
        out[name] = part
      }
      at += s.bytes
    }
    if (at !== size) throw new CheckpointRefused("bytes after the last section")
    const typed = <T>(part: Uint8Array, width: number, make: (b: ArrayBuffer, o: number, n: number) => T): T => {
      if (part.byteLength % width !== 0) throw new CheckpointRefused("a section's length does not fit its type")
      return make(part.buffer as ArrayBuffer, 0, part.byteLength / width)
    }
    const utf8 = (part: Uint8Array) => Buffer.from(part.buffer, 0, part.byteLength).toString("utf8")
    return {
      header,
      encoded: {
        table: utf8(out.table!),
        text: utf8(out.text!),
        ends: typed(out.ends!, 4, (b, o, n) => new Uint32Array(b, o, n)),
        kinds: typed(out.kinds!, 4, (b, o, n) => new Int32Array(b, o, n)),
        tags: out.tags!,
        values: typed(out.values!, 4, (b, o, n) => new Uint32Array(b, o, n)),
        floats: typed(out.floats!, 8, (b, o, n) => new Float64Array(b, o, n)),
        columns,
      },
    }
  } finally {
    closeSync(fd)
  }
}

/** The header is read from the first bytes of a file (it is a few hundred bytes). */
export const HEADER_BYTES = 64 * 1024

/**
 * Reads the `blobs` section (at `at`, `bytes` long) a typed array at a time, each into a buffer of its own as the table
 * lists them, checking the section's CRC over every byte read (the padding between arrays too).
 */
const readColumns = (
  readAt: <B extends Uint8Array>(into: B, position: number) => B,
  at: number,
  bytes: number,
  crc: number,
  table: Uint8Array,
): Array<Uint8Array> => {
  let layout: ReadonlyArray<TypedColumn>
  try {
    layout = typedColumnsOf(Buffer.from(table.buffer, 0, table.byteLength).toString("utf8"))
  } catch (e) {
    throw new CheckpointRefused(`the table is damaged: ${e instanceof Error ? e.message : String(e)}`)
  }
  const columns: Array<Uint8Array> = []
  let sum = 0
  let done = 0
  const skipTo = (to: number) => {
    if (to > done) sum = crc32(readAt(new Uint8Array(to - done), at + done), sum)
    done = to
  }
  for (const c of layout) {
    // Written one after another in the table's order: anything else is not a file this code wrote.
    if (c.offset < done || c.offset + c.bytes > bytes) throw new CheckpointRefused("the blobs section does not hold the table's arrays")
    skipTo(c.offset)
    const own = new Uint8Array(c.bufferBytes)
    sum = crc32(readAt(own.subarray(0, c.bytes), at + done), sum)
    done += c.bytes
    columns.push(own)
  }
  skipTo(bytes)
  if (sum !== crc) throw new CheckpointRefused("the blobs section is damaged")
  return columns
}
