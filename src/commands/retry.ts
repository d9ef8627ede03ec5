// Commands read a stream, decide and append at the revision read; a concurrent append makes them start over.
//
// The first retry is immediate: in one process the loser's next read already holds the winner's events. Later ones
// back off exponentially with full jitter (a random delay between 0 and the step, the step doubling up to a cap): on
// a store several nodes write to (EventStoreDB), every append in flight races all the others for the same revision,
// and retrying at once only lines the losers up for the next race. The delay is wall-clock timing, not part of the
// simulation: it takes its randomness from effect's Random reference (Math.random unless provided) and never touches
// the simulated clock, the seeded ids or the event log.
import { Duration, Effect, Random, Schedule } from "effect"

const lostRace = (e: unknown): boolean =>
  typeof e === "object" && e !== null && (e as { readonly _tag?: unknown })._tag === "WrongExpectedVersion"

/** Retries after a lost race at most this many times (then the caller answers 409 concurrent_modification). */
export const CONFLICT_RETRIES = 30
/** The backoff's first step and its cap; the delays of 30 retries add up to about 3 s at most, 1.5 s on average. */
export const BACKOFF_BASE_MS = 2
export const BACKOFF_CAP_MS = 200

/** The delay before retry `attempt` (1-based) given a draw in [0, 1): 0 for the first, then full jitter. */
export const backoffDelayMs = (attempt: number, draw: number): number =>
  attempt <= 1 ? 0 : draw * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 2))

const backoff = Schedule.forever.pipe(
  Schedule.modifyDelay(({ attempt }) =>
    attempt <= 1 ? Effect.succeed(Duration.zero) : Effect.map(Random.next, (draw) => Duration.millis(backoffDelayMs(attempt, draw))),
  ),
)

export const retryOnConflict = { schedule: backoff, times: CONFLICT_RETRIES, while: lostRace } as const
