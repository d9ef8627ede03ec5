// SimClock adapter: follows wall time (monotonic), or frozen; advanced through the control plane.
import { Effect, Layer } from "effect"
import { SimClock } from "../commands/services.js"
import { simInstant, type SimInstant } from "../domain/shared/sim-time.js"

export type ClockMode = { readonly _tag: "Wall" } | { readonly _tag: "Frozen"; readonly at: number }

export interface ControllableClock {
  readonly now: () => SimInstant
  /** Moves simulated time forward; never backwards. */
  readonly advance: (ms: number) => SimInstant
  readonly freeze: () => SimInstant
  readonly follow: () => void
  readonly isFrozen: () => boolean
  /** Sets simulated time back to `at` in the given mode (a revert to a snapshot): the one move backwards. */
  readonly rewind: (at: number, frozen: boolean) => void
}

/** Wall mode reads `wall()` plus an offset (what was advanced); frozen mode holds still until advanced. */
export const makeClock = (mode: ClockMode, wall: () => number = () => Date.now()): ControllableClock => {
  let frozenAt: number | undefined = mode._tag === "Frozen" ? mode.at : undefined
  let offset = 0
  let last = 0
  const now = () => {
    const t = frozenAt ?? wall() + offset
    if (t > last) last = t
    return simInstant(last)
  }
  return {
    now,
    advance: (ms) => {
      if (!(ms >= 0)) throw new RangeError("time only moves forward")
      if (frozenAt !== undefined) frozenAt += ms
      else offset += ms
      return now()
    },
    freeze: () => {
      const t = now()
      frozenAt = t
      return t
    },
    follow: () => {
      if (frozenAt !== undefined) offset = frozenAt - wall()
      frozenAt = undefined
    },
    isFrozen: () => frozenAt !== undefined,
    rewind: (at, frozen) => {
      last = at
      frozenAt = frozen ? at : undefined
      offset = frozen ? offset : at - wall()
    },
  }
}

export const clockLayer = (clock: ControllableClock) => Layer.succeed(SimClock, { now: Effect.sync(clock.now) })
