// What a webhook fault that fired on an attempt does (/_sim/faults, docs/faults.md). Its hit is recorded first, a
// `FaultHit` event naming the delivery, as the API's faults record theirs; the lane starts nothing else meanwhile,
// so a `reorder` holds the delivery before the next one goes. Then: `duplicate` sends the delivery twice (the same
// body, so the same idempotency key; one attempt recorded, with the first answer), `fail` sends it and records the
// fault's status whatever the receiver answered (so the retry schedule follows), `delay` and `reorder` hold it
// (fault-holds.ts; a `reorder` at most REORDER_BOUND_MS of simulated time). A hit refused (used up by another node, or the fault removed meanwhile): sent as it is.
import type { DeliveryView } from "../projections/outbox.js"
import { type FaultHolds, REORDER_BOUND_MS } from "./fault-holds.js"
import type { FiredFault } from "./faults.js"
import type { Lane } from "./lanes.js"

/** How one attempt is sent: how many times, and the status recorded instead of the receiver's. */
export interface SendMode {
  readonly copies: 1 | 2
  readonly failStatus: number | null
}

export const plainSend: SendMode = { copies: 1, failStatus: null }

export interface FaultEffectHost {
  /** Records the hit; false when it was refused or could not be written. */
  readonly recordHit: (fired: FiredFault, d: DeliveryView) => Promise<boolean>
  /** Counts the delivery as in flight on its lane (busy, not idle) while the hit is recorded, or stops counting it. */
  readonly inFlight: (d: DeliveryView, lane: Lane, by: 1 | -1) => void
  readonly send: (d: DeliveryView, at: number, lane: Lane, mode: SendMode) => void
  readonly holds: FaultHolds
  /** Simulated time, UNIX ms. */
  readonly now: () => number
  readonly wake: () => void
  readonly stopped: () => boolean
}

/** Applies `fired` to the attempt of `d` started at simulated time `at`. */
export const applyFault = (host: FaultEffectHost, d: DeliveryView, at: number, lane: Lane, fired: FiredFault): void => {
  host.inFlight(d, lane, 1)
  lane.blocked = true
  void host.recordHit(fired, d).then((recorded) => {
    lane.blocked = false
    host.inFlight(d, lane, -1)
    if (host.stopped()) return
    const effect = fired.effect
    if (!recorded) host.send(d, at, lane, plainSend)
    else if (effect.kind === "duplicate") host.send(d, at, lane, { copies: 2, failStatus: null })
    else if (effect.kind === "fail") host.send(d, at, lane, { copies: 1, failStatus: effect.status })
    else if (effect.kind === "delay") host.holds.delay(d, host.now() + effect.seconds * 1000)
    else host.holds.reorder(d, host.now() + REORDER_BOUND_MS)
    host.wake()
  })
}
