// Ids adapter: every id is a hash of (workspace seed, node, kind, sequence number), so a seed replays to the same ids.
import { createHash, createHmac, createSecretKey } from "node:crypto"
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
  /** Sets the sequence back (a revert to a snapshot): the next id is the one handed out after `sequence`. */
  readonly rewind: (sequence: number) => void
  /**
   * The epoch: how many worlds were reverted away before this one (0 until the first revert). A revert rewinds the
   * sequence, never the epoch: what must not repeat what a reverted world handed out (a webhook's idempotency key,
   * a transaction id, a block hash) mixes it in (`unrepeated`), and every event records it (metadata `epoch`).
   */
  readonly epoch: () => number
  /** Raises the epoch (a revert, or a start that reads a higher one); never lowers it. */
  readonly reachEpoch: (epoch: number) => void
  /** As `bytes`, but other bytes in each epoch (the same as `bytes` in epoch 0). */
  readonly unrepeated: (label: string, length: number) => Uint8Array
  readonly seed: Uint8Array
  /** The node id mixed into ids and event ids ("" for a lone node: its ids are the seed's plain sequence). */
  readonly node: string
}

/** Explicit node ids (`--node-id`); automatic ones are `~<slot>` (src/adapters/node-claim.ts), so the two never meet. */
export const NODE_ID = /^[A-Za-z0-9_.-]{1,64}$/

export const seedBytes = (seed: string): Uint8Array => new Uint8Array(createHash("sha256").update(`custody-sim seed:${seed}`).digest())

/**
 * Several simulator nodes on one store share the seed, so each mixes its node id into the labels it hashes:
 * `vault:7` for the lone node "" (exactly the ids of a single simulator), `vault@b:7` for node "b". A label
 * ends with the sequence number (digits) and no kind holds `@`, so distinct (node, kind, sequence) never share one.
 */
export const makeIds = (seed: string, node = ""): SeededIds => {
  if (node !== "" && !NODE_ID.test(node) && !/^~[0-9]{1,9}$/.test(node)) throw new RangeError(`bad node id: ${node}`)
  const key = seedBytes(seed)
  const at = node === "" ? "" : `@${node}`
  let seq = 0
  let epoch = 0
  // A key object made once: handing raw bytes to createHmac imports the key again on every call.
  const hmacKey = createSecretKey(key)
  const digest = (label: string): Uint8Array => createHmac("sha256", hmacKey).update(label).digest()
  const expand = (label: string, length: number) => {
    const out = new Uint8Array(length)
    for (let block = 0, off = 0; off < length; block++, off += 32)
      out.set(digest(`${label}#${block}`).subarray(0, Math.min(32, length - off)), off)
    return out
  }
  const prefix = Buffer.from(digest(`event-prefix${at}`)).toString("hex")
  const eventPrefix = `${prefix.slice(0, 8)}-${prefix.slice(8, 12)}`
  const eventPrefixTail = prefix.slice(12, 15)
  return {
    seed: key,
    node,
    next: (kind) => Buffer.from(digest(`${kind}${at}:${++seq}`)).toString("hex", 0, 12),
    // uuid v4 layout: 60 bits of a per-(seed, node) prefix, then the sequence number as 15 hex digits. Unique
    // within the workspace, the same on every replay, and no hash per event (a block commits thousands of events).
    eventId: () => {
      const n = (++seq).toString(16).padStart(15, "0")
      return `${eventPrefix}-4${eventPrefixTail}-8${n.slice(0, 3)}-${n.slice(3)}`
    },
    bytes: (label, length) => expand(label, length),
    sequence: () => seq,
    restore: (s) => {
      if (s > seq) seq = s
    },
    rewind: (s) => {
      seq = s
    },
    epoch: () => epoch,
    reachEpoch: (e) => {
      if (e > epoch) epoch = e
    },
    // No label holds "~": the epoch's suffix makes a label no other one is.
    unrepeated: (label, length) => expand(epoch === 0 ? label : `${label}~${epoch}`, length),
  }
}

export const idsLayer = (ids: SeededIds) =>
  Layer.succeed(Ids, {
    next: (kind) => Effect.sync(() => ids.next(kind)),
    eventId: Effect.sync(ids.eventId),
    bytes: ids.bytes,
    unrepeated: ids.unrepeated,
  })
