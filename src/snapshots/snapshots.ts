// Snapshots of the whole world and reverts to them. The world is the log, so a snapshot is a position plus what
// is not in the log but follows from when it was taken: the id sequence, the clock, the calls each fault has
// matched and (for speed) a copy of the read models. A revert cuts the log back to the position and puts the rest back as it was.
import type { Effect } from "effect"
import type { ModelsImage, ReadModels } from "../projections/read-models.js"
import type { EventStoreShape, StoreUnavailable } from "../store/event-store.js"
import type { ControllableClock } from "../adapters/clock.js"
import type { Gate } from "./gate.js"
import type { SeededIds } from "../adapters/ids.js"
import type { FaultCalls } from "../adapters/fault-calls-file.js"

export interface SnapshotInfo {
  readonly id: string
  /** Position of the last event of the world at the snapshot (-1n: no event yet). */
  readonly position: bigint
  /** Simulated time at the snapshot, UNIX ms. */
  readonly time: number
}

export class SnapshotNotFound extends Error {
  constructor(readonly id: string) {
    super(`No snapshot ${JSON.stringify(id)}: it was never taken, or a revert to an earlier one removed it.`)
  }
}

/** The store's log cannot be cut back (EventStoreDB: it only grows), or other simulators read it too. */
export class RevertNotSupported extends Error {
  constructor(
    readonly store: string,
    shared = false,
  ) {
    super(
      shared
        ? `Other simulators share this ${store} store: a revert would pull the log from under them. Snapshots need a store of one simulator.`
        : `The ${store} store cannot revert: its log is shared by every node and only grows. Use the memory or sqlite store for snapshots.`,
    )
  }
}

interface Held extends SnapshotInfo {
  readonly seq: number
  readonly frozen: boolean
  /** The calls each fault had matched (the count `every` and `probability` go by; not in the log). */
  readonly faultCalls: ReadonlyMap<string, number>
  /** The read models at the position; used up by the first revert to it (later ones rebuild from the log). */
  image: ModelsImage | undefined
}

export interface WorldHost {
  readonly store: EventStoreShape
  readonly models: ReadModels
  readonly ids: SeededIds
  readonly clock: ControllableClock
  readonly faultCalls: Pick<FaultCalls, "capture" | "restore">
  readonly gate: Gate
  /** Whether other simulators in this process read the same store. */
  readonly shared: () => boolean
  readonly run: <A>(effect: Effect.Effect<A, StoreUnavailable>) => Promise<A>
  /** Applies every event the store has beyond the models' position. */
  readonly pull: Effect.Effect<void, StoreUnavailable>
  /** Tells the projection runner the log was cut back to the models' position. */
  readonly rewound: () => void
  /** The log is about to be cut back to `position` (checkpoints beyond it are removed first). */
  readonly beforeTruncate?: (position: bigint) => Promise<void>
  /** Stops background work (webhook deliveries, a live subscription) before the world is replaced… */
  readonly pause: () => Promise<void>
  /** …and starts it again on the replaced world, with caches derived from the old one dropped. */
  readonly resume: () => Promise<void>
}

export interface Snapshots {
  readonly take: () => Promise<SnapshotInfo>
  readonly list: () => ReadonlyArray<SnapshotInfo>
  readonly revert: (id: string) => Promise<SnapshotInfo>
  /** Back to the world as it was when the simulator had started (its workspace created); every snapshot is dropped. */
  readonly reset: () => Promise<SnapshotInfo>
}

const info = (h: Held): SnapshotInfo => ({ id: h.id, position: h.position, time: h.time })

export const makeSnapshots = (host: WorldHost): Snapshots => {
  const { store, models, ids, clock, faultCalls } = host
  const start: Held = {
    id: "start",
    position: models.position,
    time: clock.now(),
    seq: models.lastSeq,
    frozen: clock.isFrozen(),
    faultCalls: faultCalls.capture(),
    image: undefined,
  }
  let held: Array<Held> = []
  let taken = 0

  const revertible = () => {
    const truncate = store.truncateAfter
    if (truncate === undefined) throw new RevertNotSupported(store.kind)
    if (host.shared()) throw new RevertNotSupported(store.kind, true)
    return truncate
  }

  const goTo = async (target: Held): Promise<void> => {
    const truncate = revertible()
    await host.pause()
    try {
      await host.beforeTruncate?.(target.position)
      // A new epoch, recorded with the cut: the world reverted away may have told receivers of its webhook keys,
      // transaction ids and block hashes, so what comes next must not hand them out again (README "Snapshots").
      const epoch = ids.epoch() + 1
      await host.run(truncate(target.position, { epoch }))
      ids.reachEpoch(epoch)
      if (target.image !== undefined) {
        models.restore(target.image)
        target.image = undefined
        host.rewound()
      } else {
        models.clear()
        host.rewound()
        await host.run(host.pull)
      }
      ids.rewind(target.seq)
      clock.rewind(target.time, target.frozen)
      faultCalls.restore(target.faultCalls)
    } finally {
      await host.resume()
    }
  }

  return {
    take: () =>
      host.gate.exclusive(async () => {
        revertible()
        await host.run(host.pull)
        // With no request in flight, ids drawn beyond the log's last recorded sequence went to commands that were
        // refused and are nowhere: handing them out again makes this world continue exactly as one replayed from
        // its log (or restarted) would, which is what a revert to it gives.
        ids.rewind(models.lastSeq)
        const snapshot: Held = {
          id: String(++taken),
          position: models.position,
          time: clock.now(),
          seq: models.lastSeq,
          frozen: clock.isFrozen(),
          faultCalls: faultCalls.capture(),
          image: models.capture(),
        }
        held.push(snapshot)
        return info(snapshot)
      }),
    list: () => held.map(info),
    revert: (id) =>
      host.gate.exclusive(async () => {
        revertible()
        const at = held.findIndex((h) => h.id === id)
        if (at < 0) throw new SnapshotNotFound(id)
        const target = held[at]!
        await goTo(target)
        // Snapshots taken after this one describe a world that no longer exists; this one stays, to revert to again.
        held = held.slice(0, at + 1)
        return info(target)
      }),
    reset: () =>
      host.gate.exclusive(async () => {
        await goTo(start)
        held = []
        return info(start)
      }),
  }
}
