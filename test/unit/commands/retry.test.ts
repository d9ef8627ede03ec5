// A command that loses a write race starts over: at once the first time, then after a jittered, growing delay.
import { Effect, Exit, Random } from "effect"
import { describe, expect, it } from "vitest"
import { BACKOFF_CAP_MS, CONFLICT_RETRIES, backoffDelayMs, retryOnConflict } from "../../../src/commands/retry.js"
import { StoreUnavailable, WrongExpectedVersion } from "../../../src/store/event-store.js"

const conflict = new WrongExpectedVersion({ stream: "vault-1", expected: 3n, actual: 4n })

/** Fails with `error` the first `failures` attempts; counts attempts and the random draws the schedule made. */
const flaky = (failures: number, error: WrongExpectedVersion | StoreUnavailable) => {
  let attempts = 0
  let draws = 0
  const effect = Effect.suspend(() => (++attempts <= failures ? Effect.fail(error) : Effect.succeed("written")))
  // Draws of 0: every delay is zero, so the test takes no wall time.
  const random: Random.Random = { nextDoubleUnsafe: () => (draws++, 0), nextIntUnsafe: () => (draws++, 0) }
  const run = Effect.runPromiseExit(Effect.retry(effect, retryOnConflict).pipe(Effect.provideService(Random.Random, random)))
  return { run, attempts: () => attempts, draws: () => draws }
}

describe("retry on a lost write race", () => {
  it("starts over until it wins, drawing a delay for every retry but the first", async () => {
    const f = flaky(5, conflict)
    expect(await f.run).toEqual(Exit.succeed("written"))
    expect(f.attempts()).toBe(6)
    expect(f.draws()).toBe(4)
  })

  it("gives up after the last retry with the conflict", async () => {
    const f = flaky(CONFLICT_RETRIES + 5, conflict)
    expect(await f.run).toEqual(Exit.fail(conflict))
    expect(f.attempts()).toBe(CONFLICT_RETRIES + 1)
  })

  it("does not retry other failures", async () => {
    const down = new StoreUnavailable({ reason: "down" })
    const f = flaky(1, down)
    expect(await f.run).toEqual(Exit.fail(down))
    expect(f.attempts()).toBe(1)
  })

  it("waits nothing before the first retry, then up to a doubling step, never beyond the cap", () => {
    expect(backoffDelayMs(1, 0.99)).toBe(0)
    expect([2, 3, 4, 5].map((a) => backoffDelayMs(a, 1))).toEqual([2, 4, 8, 16])
    expect(backoffDelayMs(2, 0.5)).toBe(1)
    expect(backoffDelayMs(CONFLICT_RETRIES, 1)).toBe(BACKOFF_CAP_MS)
    expect(backoffDelayMs(CONFLICT_RETRIES, 0)).toBe(0)
  })
})
