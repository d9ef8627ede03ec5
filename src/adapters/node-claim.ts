// Automatic node ids on a shared store: the lowest free slot of a registry stream, released on a clean stop.
import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import type { EventStoreShape, NewEvent, StoreUnavailable, WrongExpectedVersion } from "../store/event-store.js"

/**
 * A `$`-stream: EventStoreDB keeps it in $all, but the esdb adapter (like every reader of the simulator's log)
 * skips `$`-streams, so claims are not events of the simulation and change neither its log nor its positions.
 */
export const NODE_REGISTRY = "$custody-sim-nodes"

export interface NodeClaim {
  readonly slot: number
  /** "" for slot 0 (a lone node keeps the plain ids of a single simulator), `~<slot>` for the others. */
  readonly nodeId: string
  /** Frees the slot for the next node to start; a node that dies without it leaves its slot taken (never reused). */
  readonly release: Effect.Effect<void, StoreUnavailable | WrongExpectedVersion>
}

const registryEvent = (type: "NodeSlotClaimed" | "NodeSlotReleased", slot: number): NewEvent => ({
  id: randomUUID(),
  type,
  data: { slot },
  metadata: { at: Date.now(), schemaVersion: 1 },
})

const heldSlots = (events: ReadonlyArray<NewEvent>): Set<number> => {
  const held = new Set<number>()
  for (const e of events) {
    const slot = (e.data as { readonly slot?: unknown } | null)?.slot
    if (typeof slot !== "number") continue
    if (e.type === "NodeSlotClaimed") held.add(slot)
    else if (e.type === "NodeSlotReleased") held.delete(slot)
  }
  return held
}

/** Claims the lowest free slot with an expected-revision append: two nodes starting together get two slots. */
export const claimNodeSlot = (store: EventStoreShape): Effect.Effect<NodeClaim, StoreUnavailable | WrongExpectedVersion> =>
  Effect.gen(function* () {
    const read = yield* store.readStream(NODE_REGISTRY)
    const held = heldSlots(read.events)
    let slot = 0
    while (held.has(slot)) slot++
    yield* store.append(
      NODE_REGISTRY,
      [registryEvent("NodeSlotClaimed", slot)],
      read.revision === "no_stream" ? "no_stream" : read.revision,
    )
    return {
      slot,
      nodeId: slot === 0 ? "" : `~${slot}`,
      release: Effect.asVoid(store.append(NODE_REGISTRY, [registryEvent("NodeSlotReleased", slot)], "any")),
    }
  }).pipe(Effect.retry({ times: 50, while: (e) => e._tag === "WrongExpectedVersion" }))
