// SimClock adapter: follows wall time (monotonic), or frozen; advanced through the control plane.
import { Effect, Layer } from "effect"
import { SimClock } from "../commands/services.js"
import { simInstant, type SimInstant } from "../domain/shared/sim-time.js"

/** Wall mode may start with an offset (what was advanced before a restart). */
export type ClockMode = { readonly _tag: "Wall"; readonly offset?: number } | { readonly _tag: "Frozen"; readonly at: number }

/** Where the clock stands: its time, its mode, and in wall mode what it adds to the wall clock. */
export interface ClockState {
  readonly frozen: boolean
  readonly at: number
  readonly offset: number
}

export interface ControllableClock {
  readonly now: () => SimInstant
  /** Moves simulated time forward; never backwards. */
  readonly advance: (ms: number) => SimInstant
  readonly freeze: () => SimInstant
  readonly follow: () => void
  readonly isFrozen: () => boolean
  /** Sets simulated time back to `at` in the given mode (a revert to a snapshot): the one move backwards. */
  readonly rewind: (at: number, frozen: boolean) => void
  readonly state: () => ClockState
}

/**
 * Wall mode reads `wall()` plus an offset (what was advanced); frozen mode holds still until advanced. `changed` is
 * told the clock's state after every move that is not the wall clock's own (advance, freeze, follow, rewind).
 */
export const makeClock = (
  mode: ClockMode,
  wall: () => number = () => Date.now(),
  changed: (s: ClockState) => void = () => {},
): ControllableClock => {
  let frozenAt: number | undefined = mode._tag === "Frozen" ? mode.at : undefined
  let offset = mode._tag === "Wall" ? (mode.offset ?? 0) : 0
  let last = 0
  const now = () => {
    const t = frozenAt ?? wall() + offset
    if (t > last) last = t
    return simInstant(last)
  }
  const state = (): ClockState => ({ frozen: frozenAt !== undefined, at: now(), offset })
  const moved = <A>(a: A): A => {
    changed(state())
    return a
  }
  return {
    now,
    advance: (ms) => {
      if (!(ms >= 0)) throw new RangeError("time only moves forward")
      if (frozenAt !== undefined) frozenAt += ms
      else offset += ms
      return moved(now())
    },
    freeze: () => {
      const t = now()
      frozenAt = t
      return moved(t)
    },
    follow: () => {
      if (frozenAt !== undefined) offset = frozenAt - wall()
      frozenAt = undefined
      moved(undefined)
    },
    isFrozen: () => frozenAt !== undefined,
    rewind: (at, frozen) => {
      last = at
      frozenAt = frozen ? at : undefined
      offset = frozen ? offset : at - wall()
      moved(undefined)
    },
    state,
  }
}

export const clockLayer = (clock: ControllableClock) => Layer.succeed(SimClock, { now: Effect.sync(clock.now) })
