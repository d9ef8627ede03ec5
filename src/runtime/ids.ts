// Ids adapter: every id is a hash of (workspace seed, kind, sequence number), so a seed replays to the same ids.
import { createHash, createHmac } from "node:crypto"
import { Effect, Layer } from "effect"
import { Ids } from "../commands/services.js"
import type { IdKind } from "../domain/shared/ids.js"

export interface SeededIds {
  readonly next: (kind: IdKind) => string
  readonly eventId: () => string
  readonly bytes: (label: string, length: number) => Uint8Array
  /** Sequence number of the last id handed out: recorded in event metadata, restored at start. */
  readonly sequence: () => number
  readonly restore: (sequence: number) => void
  readonly seed: Uint8Array
}

export const seedBytes = (seed: string): Uint8Array => new Uint8Array(createHash("sha256").update(`custody-sim seed:${seed}`).digest())

export const makeIds = (seed: string): SeededIds => {
  const key = seedBytes(seed)
  let seq = 0
  const digest = (label: string): Uint8Array => createHmac("sha256", key).update(label).digest()
  const expand = (label: string, length: number) => {
    const out = new Uint8Array(length)
    for (let block = 0, off = 0; off < length; block++, off += 32) out.set(digest(`${label}#${block}`).subarray(0, Math.min(32, length - off)), off)
    return out
  }
  return {
    seed: key,
    next: (kind) => Buffer.from(digest(`${kind}:${++seq}`)).toString("hex", 0, 12),
    eventId: () => {
      const b = digest(`event:${++seq}`).slice(0, 16)
      b[6] = (b[6]! & 0x0f) | 0x40
      b[8] = (b[8]! & 0x3f) | 0x80
      const h = Buffer.from(b).toString("hex")
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
    },
    bytes: (label, length) => expand(label, length),
    sequence: () => seq,
    restore: (s) => {
      if (s > seq) seq = s
    },
  }
}

export const idsLayer = (ids: SeededIds) =>
  Layer.succeed(Ids, {
    next: (kind) => Effect.sync(() => ids.next(kind)),
    eventId: Effect.sync(ids.eventId),
    bytes: ids.bytes,
  })
